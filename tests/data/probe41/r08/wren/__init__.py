"""wren: token-slot KV stores (MHA or MLA) with a CPU stash for prefix reuse."""
