"""Prefill/decode disaggregation: peer pools and bootstrap."""
