"""sablemla: packed MLA latent cache (FlashMLA fp8 format) with host tier."""
