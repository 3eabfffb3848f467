"""SGLang-style MHA token-to-KV pool with a ratio-sized hierarchical host pool."""
