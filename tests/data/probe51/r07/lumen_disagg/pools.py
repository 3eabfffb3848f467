"""Prefill pool (token-major) and decode pool (page-major) for the same model."""
from __future__ import annotations

import json

import torch

from .registry import register
from .util import padded_head_dim, round_up


@register("prefill")
class PrefillTokenPool:
    def __init__(self, num_layers: int, kv_heads: int, head_dim: int, slots: int,
                 dtype_name: str, page_size: int, device: str = "cuda"):
        self.num_layers = num_layers
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.stored_head_dim = padded_head_dim(head_dim)
        self.dtype_name = dtype_name
        self.page_size = page_size
        self.slots = round_up(slots, page_size)
        dtype = getattr(torch, dtype_name)
        self.kv_slabs = [
            torch.zeros((self.slots, 2, kv_heads, self.stored_head_dim), dtype=dtype,
                        device=device)
            for _ in range(num_layers)
        ]

    @classmethod
    def from_config(cls, hf: dict, args, device: str = "cuda"):
        head_dim = hf["hidden_size"] // hf["num_attention_heads"]
        kv_heads = max(1, hf["num_key_value_heads"] // args.tp_size)
        dtype_name = hf["torch_dtype"] if args.kv_cache_dtype == "auto" else args.kv_cache_dtype
        return cls(hf["num_hidden_layers"], kv_heads, head_dim, args.max_total_tokens,
                   dtype_name, args.page_size, device=device)

    def export_layout(self) -> str:
        return json.dumps({
            "num_layers": self.num_layers,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "stored_head_dim": self.stored_head_dim,
            "dtype": self.dtype_name,
            "page_size": self.page_size,
        })


@register("decode")
class DecodePagedPool:
    def __init__(self, layout: dict, num_pages: int, device: str = "cuda"):
        self.layout = layout
        self.num_pages = num_pages
        shape = (num_pages, 2, layout["page_size"], layout["kv_heads"],
                 layout["stored_head_dim"])
        dtype = getattr(torch, layout["dtype"])
        self.pages = [torch.zeros(shape, dtype=dtype, device=device)
                      for _ in range(layout["num_layers"])]

    @classmethod
    def from_layout(cls, text: str, num_pages: int, device: str = "cuda"):
        return cls(json.loads(text), num_pages, device=device)
