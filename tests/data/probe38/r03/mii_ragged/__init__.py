"""mii_ragged - ragged-batching inference engine with blocked KV storage."""
