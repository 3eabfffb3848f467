"""lumen_disagg: disaggregated prefill/decode KV pools."""
