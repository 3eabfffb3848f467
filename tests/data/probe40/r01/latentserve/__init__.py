"""latentserve: compressed-latent (MLA) KV cache with host offload."""
