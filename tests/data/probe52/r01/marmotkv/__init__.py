"""marmotkv: latent KV storage for MLA decoders."""
