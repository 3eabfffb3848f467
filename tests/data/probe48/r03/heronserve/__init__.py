"""heronserve: paged KV cache with a host page tier."""
