"""pdxfer - prefill/decode disaggregation: MLA KV pool and the transfer staging area."""
