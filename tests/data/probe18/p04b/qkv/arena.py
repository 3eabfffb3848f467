import torch

from .layout import buffer_layout, token_bytes


class QuantKVArena:
    def __init__(self, cfg, budget_bytes, device="cuda"):
        self.cfg = cfg
        self.num_slots = budget_bytes // token_bytes(cfg)
        self.device = device
        self.buffers = {}
        for name, (row, dt) in buffer_layout(cfg).items():
            self.buffers[name] = [
                torch.empty((self.num_slots, *row), dtype=dt, device=device)
                for _ in range(cfg["n_layers"])
            ]
