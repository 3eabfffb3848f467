"""Minimal Python runtime modelled on TensorRT-LLM's KV cache manager."""
