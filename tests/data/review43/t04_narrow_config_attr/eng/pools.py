import torch


class FusedKVPool:
    def __init__(self, size, model_cfg, dtype=torch.bfloat16, device="cuda"):
        self.size = size
        self.dtype = dtype
        self.model_cfg = model_cfg
        self.k_buffer = []
        self.v_buffer = []
        for _ in range(model_cfg.num_layers):
            fused = torch.empty((size, 2 * model_cfg.kv_dim), dtype=dtype, device=device)
            self.k_buffer.append(fused.narrow(1, 0, model_cfg.kv_dim))
            self.v_buffer.append(fused.narrow(1, model_cfg.kv_dim, model_cfg.kv_dim))


class HostKVPool:
    def __init__(self, device_pool: FusedKVPool, size, device="cpu"):
        self.device_pool = device_pool
        self.size = size
        cfg = device_pool.model_cfg
        self.k_buffer = [torch.empty((size, cfg.kv_dim), dtype=device_pool.dtype,
                                     device=device) for _ in range(cfg.num_layers)]
        self.v_buffer = [torch.empty((size, cfg.kv_dim), dtype=torch.float32,
                                     device=device) for _ in range(cfg.num_layers)]
