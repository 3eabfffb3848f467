"""osprey: prefill/decode disaggregated serving runtime."""
