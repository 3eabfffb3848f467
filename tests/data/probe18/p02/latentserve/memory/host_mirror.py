import torch

from .latent_pool import LatentCachePool


class LatentHostMirror:
    """Hierarchical-cache host tier for LatentCachePool."""

    def __init__(self, dev: LatentCachePool, host_to_device_ratio: float = 2.0):
        self.dev = dev
        self.capacity = int(dev.capacity * host_to_device_ratio)
        self.capacity -= self.capacity % dev.page_size
        self.dtype = dev.dtype
        self.num_layers = dev.end_layer - dev.start_layer
        # one latent row per token; value is a view of the same latent row
        self.latent_dim = dev.kv_lora_rank
        self.latent_buffer = torch.empty(
            (self.num_layers, self.capacity, 1, self.latent_dim),
            dtype=self.dtype,
            device="cpu",
            pin_memory=torch.cuda.is_available(),
        )

    def load_to_device(self, host_idx, dev_idx, layer_id):
        i = layer_id - self.dev.start_layer
        self.dev.latent_buffer[i][dev_idx] = self.latent_buffer[i][host_idx].to(
            self.dev.device, non_blocking=True)
