"""Host-memory tier of the hierarchical cache for MLA models."""
import torch

from ..model_config import MLADims


class MLATokenToKVPoolHost:
    """Layer-first host buffer ``[layer_num, size, 1, width]``."""

    def __init__(self, device_pool, host_to_device_ratio: float = 2.0, page_size: int = 1, device="cpu"):
        self.device_pool = device_pool
        self.dims: MLADims = device_pool.dims
        self.page_size = page_size
        self.size = int(device_pool.size * host_to_device_ratio)
        self.size = self.size - self.size % page_size
        self.layer_num = self.dims.num_layers
        self.dtype = device_pool.dtype
        self.device = torch.device(device)

        self.kv_buffer = self.init_kv_buffer()

    def get_size_per_token(self) -> int:
        return self.dims.latent_dim * self.dtype.itemsize * self.layer_num

    def init_kv_buffer(self) -> torch.Tensor:
        pin = self.device.type == "cpu" and torch.cuda.is_available()
        return torch.empty(
            (self.layer_num, self.size, 1, self.dims.latent_dim),
            dtype=self.dtype,
            device=self.device,
            pin_memory=pin,
        )

    def backup_from_device_all_layer(self, host_indices, device_indices) -> None:
        for layer_id in range(self.layer_num):
            self.kv_buffer[layer_id, host_indices] = self.device_pool.kv_buffer[layer_id][device_indices].to(
                self.device
            )
