"""Decoder self-attention KV plus per-request encoder (cross-attention) KV."""
import torch

from .alloc import alloc_buffer
from .config import DecoderCacheConfig


class CrossAttnCachePool:
    def __init__(self, cfg: DecoderCacheConfig, num_tokens: int, max_requests: int, device="cuda"):
        self.cfg = cfg
        self.num_tokens = num_tokens
        self.max_requests = max_requests
        H, D = cfg.num_heads, cfg.head_dim
        # [layers, 2(k/v), tokens, heads, head_dim]
        self.self_kv = torch.stack([
            alloc_buffer((2, num_tokens, H, D), cfg.dtype, device)
            for _ in range(cfg.num_decoder_layers)
        ])
        # [layers, 2(k/v), requests, encoder_positions, heads, head_dim]
        self.cross_kv = torch.stack([
            alloc_buffer((2, max_requests, cfg.max_source_positions, H, D), cfg.dtype, device)
            for _ in range(cfg.num_decoder_layers)
        ])

    def write_cross(self, layer: int, req_slot: int, k: torch.Tensor, v: torch.Tensor):
        n = k.shape[0]
        self.cross_kv[layer, 0, req_slot, :n] = k
        self.cross_kv[layer, 1, req_slot, :n] = v

    def self_kv_for(self, layer: int):
        return self.self_kv[layer, 0], self.self_kv[layer, 1]
