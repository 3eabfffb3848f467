"""Prefill side of the disaggregated MLA serving stack."""
