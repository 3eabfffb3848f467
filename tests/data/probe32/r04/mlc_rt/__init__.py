"""Torch re-implementation of the MLC paged KV cache used by our runtime shim."""
