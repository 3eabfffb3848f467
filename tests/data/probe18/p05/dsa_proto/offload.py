import torch

from .config import resolve_dtype
from .device_cache import SparseAttnCache


class CpuOffloadCache:
    def __init__(self, dev: SparseAttnCache, n_tokens: int):
        cfg = dev.cfg
        self.n_tokens = n_tokens
        dt = resolve_dtype(cfg.cache_dtype)
        self.k = [torch.empty(n_tokens, cfg.n_kv_head, cfg.d_head, dtype=dt) for _ in range(cfg.n_layer)]
        self.v = [torch.empty(n_tokens, cfg.n_kv_head, cfg.d_head, dtype=dt) for _ in range(cfg.n_layer)]
        idx_bytes = cfg.index_head_dim + cfg.index_head_dim // cfg.index_quant_block * 4
        self.index_k = [torch.empty(n_tokens, idx_bytes, dtype=torch.uint8) for _ in range(cfg.n_layer)]


class ProtoEngine:
    def __init__(self, gpu_tokens=131072, cpu_tokens=262144, device="cuda", **cfg_kwargs):
        from .config import ProtoConfig
        self.cfg = ProtoConfig(**cfg_kwargs)
        self.cache = SparseAttnCache(self.cfg, gpu_tokens, device=device)
        self.offload = CpuOffloadCache(self.cache, cpu_tokens)
