"""Research server for interleaved sliding-window / full-attention models."""
