"""mla_store: compressed-latent (MLA) KV cache for DeepSeek-style models, device + host."""
