"""The cache: results and per-file facts reused across runs while nothing they came from changed."""
