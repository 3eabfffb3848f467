from dataclasses import dataclass

import torch

from .dram import DramKVPool
from .hbm import HbmKVPool


@dataclass
class EngineArgs:
    num_layers: int = 48
    num_heads: int = 8
    head_size: int = 128
    num_slots: int = 500_000
    dram_ratio: float = 4.0


def init_kv(args: EngineArgs, device="cuda", host_device="cpu"):
    hbm = HbmKVPool(args.num_layers, args.num_slots, args.num_heads, args.head_size, device=device)
    dram = DramKVPool(hbm, ratio=args.dram_ratio, pin=torch.cuda.is_available(), device=host_device)
    return hbm, dram
