"""Decode-side receive pool, shaped only from the prefill metadata message."""
from __future__ import annotations

import torch

from .formats import is_quantized, store_dtype


class DecodeLatentPool:
    def __init__(self, fields, num_pages: int, page_size: int, num_layers: int,
                 device: str = "cuda"):
        self.page_size = page_size
        self.num_pages = num_pages
        self.fields = fields
        for name, width, dtype in fields:
            setattr(self, name, [
                torch.zeros((num_pages, page_size, width), dtype=dtype, device=device)
                for _ in range(num_layers)
            ])

    @classmethod
    def from_message(cls, msg: dict, num_pages: int, device: str = "cuda"):
        store = store_dtype(msg["cache_dtype"], msg["model_dtype"])
        rank = msg["kv_lora_rank"]
        fields = [("latent_cache", rank, store)]
        if is_quantized(msg["cache_dtype"]):
            fields.append(("latent_scale", rank // msg["quant_tile"], torch.float32))
        rope_dtype = store_dtype("auto", msg["model_dtype"])  # rope stays in the model dtype
        fields.append(("rope_cache", msg["qk_rope_head_dim"], rope_dtype))
        return cls(fields, num_pages, msg["page_size"], msg["layers"], device=device)

    def page_bytes(self) -> int:
        return sum(w * dt.itemsize for _, w, dt in self.fields) * self.page_size
