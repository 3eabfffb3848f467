"""Paged KV cache for tensor-parallel decode workers."""
