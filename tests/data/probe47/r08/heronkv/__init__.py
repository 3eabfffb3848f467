"""heronkv: KV cache manager for models mixing sliding-window and full attention."""
