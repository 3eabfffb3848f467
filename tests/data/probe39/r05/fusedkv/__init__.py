"""Fused K|V storage: keys and values share one trailing dimension."""
