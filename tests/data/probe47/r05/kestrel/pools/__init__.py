"""Token-indexed KV pools."""
