"""Staging buffer for the external KV store connector.

One flat pinned byte region holds a chunk of tokens for every layer; per-layer
K and V views are carved out of it so the store can write a chunk with one
memcpy while the engine sees typed tensors.
"""
from typing import List

import torch

from mlc_paged.serve.geometry import KVGeometry

_ALIGN = 256


def _align_up(n: int, a: int = _ALIGN) -> int:
    return (n + a - 1) // a * a


class KVStagingBuffer:
    def __init__(self, geom: KVGeometry, chunk_tokens: int, device: str = "cpu") -> None:
        self.geom = geom
        self.chunk_tokens = chunk_tokens
        k_seg = _align_up(chunk_tokens * geom.k_token_bytes)
        v_seg = _align_up(chunk_tokens * geom.k_token_bytes)
        self.layer_stride = k_seg + v_seg
        pin = device == "cpu" and torch.cuda.is_available()
        self.region = torch.empty(self.layer_stride * geom.num_hidden_layers,
                                  dtype=torch.uint8, device=device, pin_memory=pin)
        h = geom.kv_heads_per_shard
        self.k_pages: List[torch.Tensor] = []
        self.v_pages: List[torch.Tensor] = []
        for layer in range(geom.num_hidden_layers):
            base = layer * self.layer_stride
            k_bytes = self.region[base: base + chunk_tokens * geom.k_token_bytes]
            v_bytes = self.region[base + k_seg: base + k_seg + chunk_tokens * geom.k_token_bytes]
            self.k_pages.append(k_bytes.view(geom.dtype).view(chunk_tokens, h, geom.head_dim))
            self.v_pages.append(v_bytes.view(geom.dtype).view(chunk_tokens, h, geom.head_dim))

    @property
    def num_layers(self) -> int:
        return self.geom.num_hidden_layers

    @property
    def num_tokens(self) -> int:
        return self.chunk_tokens
