"""osprey: flat-arena KV cache with a pinned swap space."""
