"""otterserve: prefill/decode disaggregated serving."""
