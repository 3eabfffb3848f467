import torch

class RowPoolHost:
    def __init__(self, device_pool, host_size, device="cpu"):
        cfg = device_pool.cfg
        self.k_buffer = [torch.empty((host_size, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.dtype, device=device) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.empty((host_size, cfg.num_kv_heads, cfg.head_dim // 2), dtype=cfg.dtype, device=device) for _ in range(device_pool.layer_num)]
