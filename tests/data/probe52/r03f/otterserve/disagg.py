"""Builds the prefill arena and the matching decode landing pool."""
import torch

from .cache.kvformat import KVFormat
from .cache.landing import DecodeLandingPool
from .cache.prefill_arena import PrefillKVArena


def stand_up_disagg_pair(cfg, prefill_args, decode_args, device="cuda", peer_device="cuda"):
    model_dtype = getattr(torch, cfg.torch_dtype)
    fmt = KVFormat.parse(prefill_args.kv_cache_dtype, model_dtype)
    arena = PrefillKVArena.from_model_config(
        cfg, prefill_args.max_tokens, fmt,
        tp_size=prefill_args.tp_size, page=prefill_args.page_size, device=device,
    )
    landing = DecodeLandingPool.from_model_config(
        cfg, decode_args.max_tokens, fmt, decode_args.page_size,
        tp_size=decode_args.tp_size, device=peer_device,
    )
    if arena.page != landing.page:
        raise RuntimeError("prefill and decode must agree on page size")
    return arena, landing
