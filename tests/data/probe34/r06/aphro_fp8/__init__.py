"""Aphrodite-style fork: fp8 paged KV cache with per-token, per-head scales."""
