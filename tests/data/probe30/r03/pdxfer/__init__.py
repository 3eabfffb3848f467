"""Disaggregated prefill/decode KV cache with FP8 storage."""
