import torch


class LayeredCache:
    """Per-layer buffers named by the subclass's plan."""

    def _register(self, plan, num_layers, dtype, device):
        self.names = list(plan)
        for name, shape in plan.items():
            setattr(self, name, [torch.empty(shape, dtype=dtype, device=device) for _ in range(num_layers)])
