"""pagedkv - paged KV cache with a CPU swap space for preempted sequences."""
