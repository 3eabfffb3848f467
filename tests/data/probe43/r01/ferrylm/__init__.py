"""ferrylm: KV cache storage for the ferry inference runtime."""
