"""quillserve: MLA serving with prefill/decode disaggregation."""
