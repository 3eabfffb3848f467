"""kestrel_pd: prefill/decode disaggregation for latent-attention models."""
