import torch

from .plan import Plan


class RowPool:
    def __init__(self, plan: Plan, n_rows: int, n_layers: int, device="cuda"):
        self.plan, self.n_layers = plan, n_layers
        self.rows = [torch.empty((n_rows, plan.heads, plan.width), dtype=plan.dtype,
                                 device=device) for _ in range(n_layers)]


class RowMirror(RowPool):
    @classmethod
    def of(cls, gpu: RowPool, n_rows: int, device="cpu") -> "RowMirror":
        plan = gpu.plan
        raw = Plan(1, plan.heads * plan.width * plan.dtype.itemsize, torch.uint8)
        return cls(raw, n_rows, gpu.n_layers, device=device)
