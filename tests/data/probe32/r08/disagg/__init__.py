"""Prefill/decode disaggregation: device KV pool and KV transfer staging."""
