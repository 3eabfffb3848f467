"""EAGLE/MTP speculative decoding: draft KV pool mirroring a paged MLA target pool."""
