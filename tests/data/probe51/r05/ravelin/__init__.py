"""ravelin: block-paged KV cache with CPU offload."""
