"""rayserve_disagg - prefill/decode disaggregated serving on Ray Serve deployments."""
