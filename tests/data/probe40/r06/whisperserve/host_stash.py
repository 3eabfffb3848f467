"""Pinned host stash for preempted requests (self- and cross-attention KV)."""
from .alloc import alloc_buffer
from .config import DecoderCacheConfig


class EncoderCacheStash:
    def __init__(self, cfg: DecoderCacheConfig, num_tokens: int, max_requests: int):
        L, H, D = cfg.num_decoder_layers, cfg.num_heads, cfg.head_dim
        self.self_kv = alloc_buffer((L, 2, num_tokens, H, D), cfg.dtype, "cpu", pin=True)
        self.cross_kv = alloc_buffer(
            (L, 2, max_requests, cfg.max_source_positions, H, D), cfg.dtype, "cpu", pin=True
        )

    def stash(self, pool, req_slot, host_slot, dev_tokens, host_tokens):
        self.cross_kv[:, :, host_slot] = pool.cross_kv[:, :, req_slot].cpu()
        self.self_kv[:, :, host_tokens] = pool.self_kv[:, :, dev_tokens].cpu()

    def unstash(self, pool, host_slot, req_slot, host_tokens, dev_tokens):
        dev = pool.cross_kv.device
        pool.cross_kv[:, :, req_slot] = self.cross_kv[:, :, host_slot].to(dev, non_blocking=True)
        pool.self_kv[:, :, dev_tokens] = self.self_kv[:, :, host_tokens].to(dev, non_blocking=True)
