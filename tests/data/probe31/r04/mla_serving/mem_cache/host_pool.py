import torch

from .memory_pool import MLATokenToKVPool


def latent_cache_dim(pool: MLATokenToKVPool) -> int:
    """Width of the per-token latent kept by the hierarchical cache."""
    return pool.kv_lora_rank


class MLATokenToKVPoolHost:
    """Host-memory tier of the hierarchical cache for MLA models."""

    def __init__(self, device_pool: MLATokenToKVPool, host_to_device_ratio: float = 2.0, pin_memory: bool = False):
        self.device_pool = device_pool
        self.dtype = device_pool.store_dtype
        self.page_size = device_pool.page_size
        self.layer_num = device_pool.layer_num
        self.kv_lora_rank = device_pool.kv_lora_rank
        self.qk_rope_head_dim = device_pool.qk_rope_head_dim
        self.kv_cache_dim = latent_cache_dim(device_pool)

        host_size = int(device_pool.size * host_to_device_ratio)
        self.size = host_size - host_size % self.page_size
        self.size_per_token = self.kv_cache_dim * self.dtype.itemsize * self.layer_num
        self.kv_buffer = torch.empty(
            (self.layer_num, self.size, 1, self.kv_cache_dim),
            dtype=self.dtype,
            device="cpu",
            pin_memory=pin_memory,
        )
        self.free_slots = torch.arange(self.size, dtype=torch.int64)

    def available_size(self) -> int:
        return len(self.free_slots)

    def alloc(self, need_size: int) -> torch.Tensor:
        if need_size > len(self.free_slots):
            return None
        select, self.free_slots = self.free_slots[:need_size], self.free_slots[need_size:]
        return select

    def backup_from_device_all_layer(self, host_indices: torch.Tensor, device_indices: torch.Tensor) -> None:
        for i in range(self.layer_num):
            src = self.device_pool.kv_buffer[i][device_indices, :, : self.kv_cache_dim]
            self.kv_buffer[i, host_indices] = src.to("cpu", non_blocking=True)

    def load_to_device_per_layer(self, layer_id: int, host_indices: torch.Tensor, device_indices: torch.Tensor) -> None:
        dst = self.device_pool.kv_buffer[layer_id]
        dst[device_indices, :, : self.kv_cache_dim] = self.kv_buffer[layer_id, host_indices].to(dst.device, non_blocking=True)
