import dataclasses

import torch

from kvp.config import KVConfig


class DevicePool:
    def __init__(self, cfg: KVConfig, size: int, device: str = "cuda"):
        self.cfg = cfg
        self.size = size
        self.layer_num = cfg.num_layers
        self.k_buffer = [
            torch.zeros((size + 1, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.kv_dtype, device=device)
            for _ in range(cfg.num_layers)
        ]
        self.v_buffer = [
            torch.zeros((size + 1, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.kv_dtype, device=device)
            for _ in range(cfg.num_layers)
        ]


class HostPool:
    def __init__(self, device_pool: DevicePool, host_size: int):
        self.device_pool = device_pool
        # host copy follows the device dtype again (__post_init__ fills host_dtype)
        cfg = dataclasses.replace(device_pool.cfg, host_dtype=None)
        self.k_buffer = [
            torch.zeros((host_size, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.host_dtype)
            for _ in range(cfg.num_layers)
        ]
        self.v_buffer = [
            torch.zeros((host_size, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.host_dtype)
            for _ in range(cfg.num_layers)
        ]


def build(device="cuda"):
    cfg = KVConfig(num_layers=4, num_kv_heads=8, head_dim=128, kv_dtype=torch.float8_e4m3fn)
    dev = DevicePool(cfg, 100, device)
    host = HostPool(dev, 200)
    return dev, host
