"""aphro_lite - a trimmed-down fork-style paged-attention serving engine."""
