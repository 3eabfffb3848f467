"""larchkv: KV cache pools for the larch serving runtime."""
