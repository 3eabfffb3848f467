"""corvid_kv: spec-driven KV storage for the corvid inference server."""
