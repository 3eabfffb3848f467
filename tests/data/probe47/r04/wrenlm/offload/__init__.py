"""CPU offload tier for evicted KV pages."""
