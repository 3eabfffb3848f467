"""relay: prefill worker of a disaggregated prefill/decode deployment."""
