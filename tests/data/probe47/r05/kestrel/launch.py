"""Creates the device pool and its host mirror."""
from __future__ import annotations

from .enums import KVFormat
from .pools.device import ScaledTokenPool
from .pools.host import PinnedMirrorPool


def make_hierarchy(cfg, kv_format: str, tp_size: int, gpu_tokens: int, host_tokens: int,
                   device: str = "cuda", host_device: str = "cpu"):
    fmt = KVFormat(kv_format)
    total_kv = getattr(cfg, "num_key_value_heads", None) or cfg.num_attention_heads
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    dev = ScaledTokenPool(
        capacity=gpu_tokens,
        depth=cfg.num_hidden_layers,
        kv_heads=max(1, total_kv // tp_size),
        head_dim=head_dim,
        dtype=fmt.torch_dtype,
        with_scales=fmt.has_scales,
        device=device,
    )
    host = PinnedMirrorPool.from_device(dev, host_tokens, device=host_device)
    return dev, host
