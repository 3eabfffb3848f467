"""Host pools for HiCache; ``create_host_pool`` picks one for the model."""
import torch

from .model_config import get_num_kv_heads, head_dim, kv_cache_dtype


class HostKVPool:
    def __init__(self, device_pool, server_args, device):
        self.device_pool = device_pool
        self.page_size = server_args["page_size"]
        size = int(device_pool.size * server_args["hicache_ratio"])
        self.size = size // self.page_size * self.page_size
        self.layer_num = device_pool.layer_num
        self.device = device
        self.pin_memory = str(device) == "cpu"

    def backup_from_device_all_layer(self, host_indices, device_indices):
        self.kv_buffer[:, :, host_indices] = self.device_pool.kv_buffer[:, :, device_indices].to(self.device)

    def load_to_device_per_layer(self, layer_id, host_indices, device_indices):
        dst = self.device_pool.kv_buffer[layer_id]
        dst[:, device_indices] = self.kv_buffer[layer_id, :, host_indices].to(dst.device, non_blocking=True)


class MHATokenToKVPoolHost(HostKVPool):
    def __init__(self, device_pool, model_cfg, server_args, device):
        super().__init__(device_pool, server_args, device)
        self.head_num = get_num_kv_heads(model_cfg, server_args["tp_size"])
        self.head_dim = head_dim(model_cfg)
        self.dtype = kv_cache_dtype(model_cfg, server_args)
        self.kv_buffer = torch.empty((self.layer_num, 2, self.size, self.head_num, self.head_dim),
                                     dtype=self.dtype, device=device, pin_memory=self.pin_memory)


class MLATokenToKVPoolHost(HostKVPool):
    def __init__(self, device_pool, model_cfg, server_args, device):
        super().__init__(device_pool, server_args, device)
        width = model_cfg["kv_lora_rank"] + model_cfg["qk_rope_head_dim"]
        self.dtype = kv_cache_dtype(model_cfg, server_args)
        self.kv_buffer = torch.empty((self.layer_num, 1, self.size, 1, width),
                                     dtype=self.dtype, device=device, pin_memory=self.pin_memory)


def create_host_pool(device_pool, model_cfg, server_args, device="cpu"):
    cls = MLATokenToKVPoolHost if "kv_lora_rank" in model_cfg else MHATokenToKVPoolHost
    return cls(device_pool, model_cfg, server_args, device)
