"""Streaming speech-to-text server (encoder-decoder)."""
