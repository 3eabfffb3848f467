"""pelicache: two-tier (GPU + pinned host) token KV cache for the pelican server."""
