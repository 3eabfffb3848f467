"""ibisgen: encoder-decoder generation server."""
