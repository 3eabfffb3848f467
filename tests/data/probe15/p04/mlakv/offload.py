import torch

from mlakv.latent_pool import LatentKVPool


class LatentOffloadPool:
    def __init__(self, device: LatentKVPool, ratio: float = 2.0):
        self.device = device
        self.capacity = int(device.capacity * ratio)
        self.latent = [
            torch.empty((self.capacity, 1, device.kv_lora_rank), dtype=device.dtype, pin_memory=True)
            for _ in range(device.n_layers)
        ]

    def backup(self, layer_id: int, dev_idx, host_idx):
        self.latent[layer_id][host_idx] = self.device.latent[layer_id][dev_idx].cpu()
