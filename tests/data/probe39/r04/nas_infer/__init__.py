"""Inference runtime for NAS-pruned decoders with per-block attention widths."""
