"""Starts a prefill instance and the decode pool it will push pages into."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .layout import select_layout
from .memory.device import PackedLatentPool
from .memory.peer import build_decode_peer


@dataclass
class ServerArgs:
    kv_cache_dtype: str = "fp8_e4m3"
    attention_backend: str = "flashmla"
    page_size: int = 64
    prefill_pages: int = 4096
    decode_pages: int = 16384
    device: str = "cuda"
    decode_device: str = "cuda"


def start_prefill_instance(hf: Mapping[str, Any], server: ServerArgs):
    spec = select_layout(hf, server.kv_cache_dtype, server.attention_backend)
    prefill = PackedLatentPool(spec, hf["num_hidden_layers"], server.prefill_pages,
                               server.page_size, device=server.device)
    decode = build_decode_peer(hf, server.kv_cache_dtype, server.decode_pages,
                               server.page_size, device=server.decode_device)
    return prefill, decode
