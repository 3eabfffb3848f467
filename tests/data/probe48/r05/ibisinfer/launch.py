"""Cache construction for a Qwen2-VL style model."""
from __future__ import annotations

from typing import Any

import torch

from .formats import CacheFormat
from .stores import GpuKVStore, SwapSpace


def prepare_caches(model_cfg: Any, opts: Any, device: str = "cuda", swap_device: str = "cpu"):
    """Returns ``(gpu_store, swap_space)`` for this rank."""
    text = model_cfg.text_config
    heads = text.num_attention_heads
    kv_heads = text.num_key_value_heads
    if kv_heads % opts.tp_size:
        raise ValueError(f"cannot shard {kv_heads} kv heads over {opts.tp_size} ranks")
    # The vision merger projects patches into the LM's hidden size.
    embed_dim = model_cfg.vision_config.out_hidden_size
    gpu = GpuKVStore(
        fmt=CacheFormat.lookup(opts.kv_format),
        num_slots=opts.max_num_tokens,
        num_layers=text.num_hidden_layers,
        kv_heads=kv_heads // opts.tp_size,
        head_dim=text.hidden_size // heads,
        mm_slots=opts.max_image_tokens,
        embed_dim=embed_dim,
        embed_dtype=getattr(torch, model_cfg.torch_dtype),
        device=device,
    )
    swap = SwapSpace(gpu, num_slots=opts.swap_tokens, mm_slots=opts.swap_image_tokens,
                     device=swap_device)
    return gpu, swap
