"""TGI-style paged KV cache with a CPU tier for the prefix cache."""
