"""swapkit - KV arenas for the accelerator and the host swap space."""
