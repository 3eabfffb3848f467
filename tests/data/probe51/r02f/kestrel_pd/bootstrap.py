"""Pairs a prefill pool with the decode pool that receives its pages."""
from __future__ import annotations

import json

from .decode import DecodeLatentPool
from .prefill import PrefillLatentPool


def pair_prefill_decode(hf: dict, args, device: str = "cuda"):
    prefill = PrefillLatentPool(
        hf,
        cache_dtype=args.kv_cache_dtype,
        budget_bytes=int(args.gpu_kv_gib * (1 << 30)),
        page_size=args.page_size,
        device=device,
    )
    wire = json.dumps(prefill.describe())          # sent over the bootstrap socket
    decode = DecodeLatentPool.from_message(json.loads(wire), args.decode_pages,
                                           device=device)
    return prefill, decode
