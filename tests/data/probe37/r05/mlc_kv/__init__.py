"""Paged KV state for MLA (multi-head latent attention) models."""
