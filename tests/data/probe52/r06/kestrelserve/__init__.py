"""kestrelserve: int4 KV serving stack."""
