"""sedge: cache pools for hybrid state-space / attention models."""
