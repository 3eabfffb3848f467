"""lattice: MLA (compressed latent) KV pages with a CPU swap space."""
