"""Stage 1, from paths to an index: discover files, pre-filter bytes, parse, index the tree."""
