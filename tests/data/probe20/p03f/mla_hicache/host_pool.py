import torch

from .gpu_pool import LatentCachePool


class LatentHostCache:
    """Host tier; layer axis first so a whole page range moves with one copy per layer."""

    def __init__(self, pool: LatentCachePool, hf_config: dict, ratio: float, device="cpu"):
        pages = int(pool.capacity * ratio) // pool.page_size
        self.page_size = pool.page_size
        self.capacity = pages * pool.page_size
        self.num_layers = pool.num_layers
        self.dtype = pool.store_dtype
        rope_dim = hf_config["qk_rope_head_dim"]
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.latent = torch.empty(
            (self.num_layers, self.capacity, 1, pool.lora_rank),
            dtype=self.dtype, device=device, pin_memory=pin,
        )
        self.rope = torch.empty(
            (self.num_layers, self.capacity, 1, rope_dim),
            dtype=self.dtype, device=device, pin_memory=pin,
        )

    def backup_from_device(self, pool: LatentCachePool, host_idx, dev_idx):
        for layer in range(self.num_layers):
            self.latent[layer, host_idx] = pool.latent[layer][dev_idx].cpu()
            self.rope[layer, host_idx] = pool.rope[layer][dev_idx].cpu()

    def load_to_device(self, pool: LatentCachePool, host_idx, dev_idx):
        for layer in range(self.num_layers):
            pool.latent[layer][dev_idx] = self.latent[layer, host_idx].to(pool.latent[layer].device)
            pool.rope[layer][dev_idx] = self.rope[layer, host_idx].to(pool.rope[layer].device)
