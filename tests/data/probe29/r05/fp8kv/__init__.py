"""fp8kv - slot-addressed KV cache with optional fp8 quantization and a host shadow copy."""
