import torch


class PinnedLayerStore:
    """Per-layer key/value tensors on the offload device. Shapes and dtype are
    copied from a template tensor so the store can never drift from the
    on-device prefetch buffers."""

    def __init__(self, template: torch.Tensor, num_layers: int, device):
        self.device = torch.device(device)
        pin = self.device.type == "cpu" and torch.cuda.is_available()
        self.num_layers = num_layers
        self.key_cache: list[torch.Tensor] = []
        self.value_cache: list[torch.Tensor] = []
        for _ in range(num_layers):
            k = torch.zeros(template.shape, dtype=template.dtype,
                            device=self.device, pin_memory=pin)
            v = torch.zeros_like(k)
            self.key_cache.append(k)
            self.value_cache.append(v)

    def layer(self, idx):
        return self.key_cache[idx], self.value_cache[idx]
