import torch

from quasar_serve.kv.device_pool import MHATokenToKVPool
from quasar_serve.registry import register_pool


@register_pool("mha_host")
class MHATokenToKVPoolHost:
    """Host tier: one tensor per K/V with a leading layer dimension."""

    def __init__(self, device_pool: MHATokenToKVPool, host_ratio: float,
                 device: str = "cpu") -> None:
        self.size = int(device_pool.size * host_ratio)
        self.dtype = device_pool.dtype
        self.head_num = device_pool.head_num
        self.head_dim = device_pool.head_dim
        self.layer_num = device_pool.layer_num
        pin = device == "cpu" and torch.cuda.is_available()
        self.k_buffer = torch.empty((self.layer_num, self.size, self.head_num, self.head_dim),
                                    dtype=self.dtype, device=device, pin_memory=pin)
        self.v_buffer = torch.empty((self.layer_num, self.size, self.head_num,
                                     device_pool.v_head_dim),
                                    dtype=self.dtype, device=device, pin_memory=pin)

    def get_size_per_token(self) -> int:
        return 2 * self.head_num * self.head_dim * self.dtype.itemsize * self.layer_num

    def backup_layer(self, device_pool: MHATokenToKVPool, layer: int, host_idx, dev_idx) -> None:
        self.k_buffer[layer, host_idx] = device_pool.k_buffer[layer][dev_idx].cpu()
        self.v_buffer[layer, host_idx] = device_pool.v_buffer[layer][dev_idx].cpu()
