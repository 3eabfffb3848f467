"""Decode instance of a prefill/decode disaggregated deployment."""
