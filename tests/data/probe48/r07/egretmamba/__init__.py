"""egretmamba: request-state pools for Mamba-2 models, with a host tier for paused requests."""
