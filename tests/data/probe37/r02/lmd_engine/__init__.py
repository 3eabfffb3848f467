"""PyTorch-backend serving engine: paged KV cache with optional online KV quantisation."""
