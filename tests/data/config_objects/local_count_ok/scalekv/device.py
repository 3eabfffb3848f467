import torch
from scalekv.config import KVConfig

class ScaledKVPool:
    def __init__(self, cfg: KVConfig, size: int):
        self.cfg = cfg
        self.size = size
        shape = (size, cfg.num_kv_heads, cfg.head_dim)
        self.k_buffer = [torch.empty(shape, dtype=cfg.kv_dtype, device="cuda") for _ in range(cfg.num_layers)]
        self.v_buffer = [torch.empty(shape, dtype=cfg.kv_dtype, device="cuda") for _ in range(cfg.num_layers)]
        if cfg.use_fp8_scales:
            self.k_scale = [torch.ones((size, cfg.num_kv_heads), dtype=torch.float32, device="cuda")
                            for _ in range(cfg.num_layers)]
            self.v_scale = [torch.ones((size, cfg.num_kv_heads), dtype=torch.float32, device="cuda")
                            for _ in range(cfg.num_layers)]
