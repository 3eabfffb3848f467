import torch

from .cfg import FP8_KINDS, DisaggConfig, is_fp8


class PrefillKVPool:
    """Prefill worker's KV; shipped to decode workers token-by-token after prefill."""

    def __init__(self, cfg: DisaggConfig, device="cuda"):
        self.cfg = cfg
        self.num_tokens = cfg.prefill_tokens
        L, H, D = cfg.num_hidden_layers, cfg.num_key_value_heads, cfg.head_dim
        self.store_dtype = FP8_KINDS.get(cfg.kv_cache_dtype, cfg.dtype)
        self.k_cache = torch.empty(L, self.num_tokens, H, D, dtype=self.store_dtype, device=device)
        self.v_cache = torch.empty(L, self.num_tokens, H, D, dtype=self.store_dtype, device=device)
        self.kv_scales = None
        if is_fp8(cfg):
            # per-token, per-head dequant scales for K and V
            self.kv_scales = torch.ones(L, self.num_tokens, 2, H, dtype=torch.float32, device=device)

    def transfer_buffers(self):
        bufs = [self.k_cache, self.v_cache]
        return bufs + ([self.kv_scales] if self.kv_scales is not None else [])
