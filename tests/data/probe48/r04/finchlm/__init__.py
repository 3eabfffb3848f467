"""finchlm: disaggregated prefill/decode serving with int4 KV pages."""
