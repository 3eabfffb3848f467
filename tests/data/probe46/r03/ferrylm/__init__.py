"""ferrylm: in-house serving engine, speculative decoding support."""
