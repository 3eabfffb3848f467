import torch
from scalekv.config import KVConfig
from scalekv.device import ScaledKVPool

class ScaledKVPoolHost:
    def __init__(self, cfg: KVConfig, device_pool: ScaledKVPool, host_size: int):
        self.device_pool = device_pool
        L = cfg.num_layers
        self.k_buffer = torch.empty((L, host_size, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.kv_dtype)
        self.v_buffer = torch.empty((L, host_size, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.kv_dtype)
        if cfg.use_fp8_scales:
            # BUG: scales stored as bf16 on host, float32 on device
            self.k_scale = torch.empty((L, host_size, cfg.num_kv_heads), dtype=torch.float32)
            self.v_scale = torch.empty((L, host_size, cfg.num_kv_heads), dtype=torch.float32)
