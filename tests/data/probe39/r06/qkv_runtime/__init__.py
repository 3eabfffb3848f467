"""Int8 KV cache runtime with grouped dequantisation scales."""
