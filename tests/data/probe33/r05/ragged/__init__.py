"""DeepSpeed-MII-style ragged batching KV cache with a host mirror."""
