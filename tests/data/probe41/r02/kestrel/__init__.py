"""kestrel: block-table KV storage with a pinned host mirror."""
