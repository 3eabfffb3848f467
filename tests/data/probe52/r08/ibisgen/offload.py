"""Host offload for finished-encoder cross KV and evicted self-attention prefixes."""
import math

import torch


class SeqToSeqOffload:
    def __init__(self, bank, ratio: float, device="cpu"):
        self.num_layers = bank.num_layers
        self.row_elems = {
            kind: sum(math.prod(geom) for _ in ("k", "v"))
            for kind, geom in bank.geometry.items()
        }
        self.slots = {kind: int(n * ratio) for kind, n in bank.slots.items()}
        self.rows = {
            f"{kind}_kv": [
                torch.empty((self.slots[kind], self.row_elems[kind]), dtype=bank.dtype, device=device)
                for _ in range(self.num_layers)
            ]
            for kind in bank.KINDS
        }

    def __getitem__(self, key):
        return self.rows[key]
