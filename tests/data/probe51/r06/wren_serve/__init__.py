"""wren_serve: MHA-mode KV caching for models with decoupled rope heads."""
