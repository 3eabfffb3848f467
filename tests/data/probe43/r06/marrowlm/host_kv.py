import math

import torch

from .kv_config import QuantCacheConfig


class QuantHostKV:
    """Host mirror stored as raw bytes; one stacked tensor per buffer."""

    def __init__(self, layers, tokens, payload_bytes, scale_count, device):
        self.num_tokens = tokens
        self.k_payload = torch.empty((layers, tokens, payload_bytes), dtype=torch.uint8, device=device)
        self.v_payload = torch.empty_like(self.k_payload)
        self.k_scales = torch.ones((layers, tokens, scale_count), dtype=torch.float32, device=device)
        self.v_scales = torch.ones_like(self.k_scales)

    @classmethod
    def from_config(cls, cfg: QuantCacheConfig):
        elem = torch.empty(0, dtype=cfg.qdtype, device="meta").element_size()
        payload = cfg.local_kv_heads * cfg.head_dim * elem
        scales = cfg.local_kv_heads * math.ceil(cfg.head_dim / cfg.quant_block)
        return cls(cfg.layers, cfg.host_tokens, payload, scales, cfg.host_device)
