"""Fork of the vLLM v0 worker: cache engine and swap space."""
