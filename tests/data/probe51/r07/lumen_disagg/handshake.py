"""Startup handshake: decode adopts the layout the prefill side publishes."""
from __future__ import annotations

from .registry import get_pool_cls


def connect_pools(hf: dict, args, device: str = "cuda"):
    prefill = get_pool_cls("prefill").from_config(hf, args, device=device)
    layout_text = prefill.export_layout()
    decode = get_pool_cls("decode").from_layout(layout_text, args.decode_num_pages,
                                                 device=device)
    return prefill, decode
