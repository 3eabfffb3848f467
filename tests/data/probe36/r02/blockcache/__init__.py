"""Block-based paged KV cache with a CPU swap space."""
