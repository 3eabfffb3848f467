"""KV pool implementations."""
