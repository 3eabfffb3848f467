"""jaxport_serve - torch port of a JAX/pjit decode server for latent-attention models."""
