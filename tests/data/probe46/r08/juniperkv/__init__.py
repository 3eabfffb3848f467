"""juniperkv: KV caches for an asymmetric-head model served with PD disaggregation."""
