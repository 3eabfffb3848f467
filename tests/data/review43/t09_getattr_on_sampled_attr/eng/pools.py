import torch


class TokenPool:
    def __init__(self, size, model_cfg, dtype=torch.bfloat16, device="cuda"):
        self.size = size
        self.model_cfg = model_cfg
        self.dtype = dtype
        quant = model_cfg.quant_config
        self.scale_cols = getattr(quant, "kv_scale_cols", 0)
        self.k_buffer = [
            torch.empty((size, model_cfg.kv_dim + self.scale_cols), dtype=dtype, device=device)
            for _ in range(model_cfg.num_layers)
        ]


class HostPool:
    def __init__(self, device_pool: TokenPool, size, device="cpu"):
        cfg = device_pool.model_cfg
        self.k_buffer = [
            torch.empty((size, cfg.kv_dim), dtype=device_pool.dtype, device=device)
            for _ in range(cfg.num_layers)
        ]
