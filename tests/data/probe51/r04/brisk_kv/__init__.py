"""brisk_kv: int8 KV cache with asymmetric per-group quantisation."""
