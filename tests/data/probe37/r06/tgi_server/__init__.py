"""Python model server: flash causal LM with a paged KV cache."""
