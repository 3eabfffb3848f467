"""wrenllm: disaggregated inference runtime."""
