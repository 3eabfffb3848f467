"""ember: int8 KV cache with a host offload store."""
