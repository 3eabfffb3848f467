"""maxshim - Python shim exposing a MAX-style paged KV manager on top of torch."""
