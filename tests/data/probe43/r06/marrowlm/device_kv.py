import torch

from .kv_config import QuantCacheConfig


class QuantPagedKV:
    def __init__(self, cfg: QuantCacheConfig):
        self.cfg = cfg
        self.num_tokens = cfg.device_tokens
        heads = cfg.kv_heads // cfg.tp
        groups = (cfg.head_dim + cfg.quant_block - 1) // cfg.quant_block
        self.k_q, self.v_q, self.k_scale, self.v_scale = [], [], [], []
        for _ in range(cfg.layers):
            for store in (self.k_q, self.v_q):
                store.append(
                    torch.empty((self.num_tokens, heads, cfg.head_dim), dtype=cfg.qdtype, device=cfg.device)
                )
            for store in (self.k_scale, self.v_scale):
                store.append(
                    torch.full((self.num_tokens, heads, groups), 1.0, dtype=torch.float32, device=cfg.device)
                )
