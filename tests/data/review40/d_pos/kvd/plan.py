"""Buffers of the sparse indexer, by name.

The indexer keeps its own keys; unlike MHATokenToKVPool it has no "k_buffer" or
"v_buffer", only a compressed key and its scale per token.
"""
import torch


def indexer_plan(index_head_dim, dtype):
    return {
        "index_k": (index_head_dim, dtype),
        "index_k_scale": (1, torch.float32),
    }
