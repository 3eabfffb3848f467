"""ternserve: MLA-aware serving engine with hierarchical KV caching."""
