import torch

from .config import ProtoConfig, resolve_dtype


class SparseAttnCache:
    """K/V plus lightning-indexer keys used to pick top-k tokens."""

    def __init__(self, cfg: ProtoConfig, n_tokens: int, device="cuda"):
        self.cfg = cfg
        self.n_tokens = n_tokens
        dt = resolve_dtype(cfg.cache_dtype)
        kv_shape = (n_tokens, cfg.n_kv_head, cfg.d_head)
        self.k = [torch.empty(kv_shape, dtype=dt, device=device) for _ in range(cfg.n_layer)]
        self.v = [torch.empty(kv_shape, dtype=dt, device=device) for _ in range(cfg.n_layer)]
        if cfg.index_keys_bf16:
            idx_shape, idx_dt = (n_tokens, cfg.index_head_dim), torch.bfloat16
        else:
            # fp8 payload followed by one fp32 scale per quant block, packed as bytes
            packed = cfg.index_head_dim + cfg.index_head_dim // cfg.index_quant_block * 4
            idx_shape, idx_dt = (n_tokens, packed), torch.uint8
        self.index_k = [torch.empty(idx_shape, dtype=idx_dt, device=device)
                        for _ in range(cfg.n_layer)]
