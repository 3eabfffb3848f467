import torch

from .arena import QuantKVArena
from .layout import buffer_layout


class ArenaMirror:
    """CPU copy of a QuantKVArena used for preemption / prefix reuse."""

    def __init__(self, arena: QuantKVArena, num_slots: int):
        self.num_slots = num_slots
        cfg = arena.cfg
        self.buffers = {
            name: [torch.zeros((num_slots,) + tuple(row), dtype=torch.float16 if name.endswith("scale") else dt)
                   for _ in range(cfg["n_layers"])]
            for name, (row, dt) in buffer_layout(cfg).items()
        }

    def backup(self, arena, src_slots, dst_slots):
        for name, layers in self.buffers.items():
            for dst, src in zip(layers, arena.buffers[name]):
                dst[dst_slots] = src[src_slots].cpu()


def make_arena_pair(cfg=None, gpu_budget=16 << 30, cpu_slots=65536, device="cuda"):
    from .layout import DEFAULT_CFG
    cfg = dict(DEFAULT_CFG, **(cfg or {}))
    arena = QuantKVArena(cfg, gpu_budget, device=device)
    return arena, ArenaMirror(arena, cpu_slots)
