"""vLLM v1 KV-offloading-connector-style CPU block store."""
