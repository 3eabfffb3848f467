"""gannet: disaggregated MLA serving (prefill and decode instances)."""
