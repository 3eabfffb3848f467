"""lanternkv: token-level KV cache with a host-memory tier for hierarchical caching."""
