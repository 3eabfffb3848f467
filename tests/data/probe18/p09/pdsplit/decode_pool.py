import torch

from .cfg import FP8_KINDS, DisaggConfig, is_fp8


class DecodeKVPool:
    """Decode worker's KV; receives raw bytes from PrefillKVPool.transfer_buffers()."""

    def __init__(self, cfg: DisaggConfig, device="cuda"):
        self.cfg = cfg
        self.num_tokens = cfg.decode_tokens
        L, H, D = cfg.num_hidden_layers, cfg.num_key_value_heads, cfg.head_dim
        store = FP8_KINDS.get(cfg.kv_cache_dtype, cfg.dtype)
        self.k_cache = torch.empty(L, self.num_tokens, H, D, dtype=store, device=device)
        self.v_cache = torch.empty(L, self.num_tokens, H, D, dtype=store, device=device)
        self.kv_scales = None
        if is_fp8(cfg):
            self.kv_scales = torch.ones(L, self.num_tokens, 2, H, dtype=cfg.dtype, device=device)

    def receive_buffers(self):
        bufs = [self.k_cache, self.v_cache]
        return bufs + ([self.kv_scales] if self.kv_scales is not None else [])


def build_disagg_pair(cfg: DisaggConfig = None, prefill_device="cuda", decode_device="cuda"):
    from .prefill_pool import PrefillKVPool
    cfg = cfg or DisaggConfig()
    return PrefillKVPool(cfg, prefill_device), DecodeKVPool(cfg, decode_device)
