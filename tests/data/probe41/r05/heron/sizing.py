from typing import NamedTuple

import torch

FP8 = torch.float8_e4m3fn
SCALE = torch.float32


class SlotBytes(NamedTuple):
    data: int    # K+V payload bytes for one token in one layer
    scale: int   # K+V scale bytes for one token in one layer


def heads_per_rank(cfg) -> int:
    return cfg.num_kv_heads // cfg.tp_size


def slot_bytes(cfg) -> SlotBytes:
    group = getattr(cfg, "scale_group", 128)
    heads = heads_per_rank(cfg)
    data = 2 * heads * cfg.head_dim * (torch.finfo(FP8).bits // 8)
    scale = 2 * heads * (cfg.head_dim // group) * SCALE.itemsize
    return SlotBytes(data, scale)
