"""Cache variants for the dynamic generator (FP16 / FP8 / grouped Q4-Q8)."""
