"""Dynamo-style KV block manager with a device tier and a pinned host tier."""
