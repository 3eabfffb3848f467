"""exq_serve - dynamic-batching generator around a Q4 quantised KV cache."""
