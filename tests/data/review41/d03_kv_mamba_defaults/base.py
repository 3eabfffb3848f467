import torch


class StatePoolBase:
    """Pools whose buffers are declared as a plan: name -> per-layer shape (without the
    leading slot dimension)."""

    def _allocate(self, plan: dict, num_slots: int, num_layers: int, dtype, device):
        self.buffer_names = []
        for name, shape in plan.items():
            setattr(self, name, torch.zeros((num_layers, num_slots + 1, *shape), dtype=dtype, device=device))
            self.buffer_names.append(name)

    def buffers(self):
        return [getattr(self, n) for n in self.buffer_names]
