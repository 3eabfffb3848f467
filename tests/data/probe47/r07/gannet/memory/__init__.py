"""Latent KV pools for the prefill and decode instances."""
