"""quillkv: sparse-attention latent cache with a CPU mirror."""
