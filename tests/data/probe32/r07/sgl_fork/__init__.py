"""Internal SGLang fork (renamed memory-pool parameters)."""
