import torch

class RowPool:
    def __init__(self, size, cfg, device="cuda"):
        self.cfg = cfg
        rows = cfg.rows_for(size)
        self.layer_num = cfg.num_layers
        self.k_buffer = [torch.zeros((rows, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.dtype, device=device) for _ in range(self.layer_num)]
        self.v_buffer = [torch.zeros((rows, cfg.num_kv_heads, cfg.head_dim), dtype=cfg.dtype, device=device) for _ in range(self.layer_num)]
