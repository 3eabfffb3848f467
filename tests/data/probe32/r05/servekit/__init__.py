"""In-house inference server: KV cache components."""
