import torch


class HybridKVCache:
    def __init__(self, cfg):
        self.slots = cfg.gpu_slots
        self.dtype = getattr(torch, cfg.kv_dtype)
        self.layer_types = list(cfg.layer_types)
        heads_for = {"full": cfg.full_kv_heads, "sliding": cfg.sliding_kv_heads}
        self.k_cache, self.v_cache = [], []
        for kind in self.layer_types:
            shape = (self.slots, heads_for[kind], cfg.head_dim)
            self.k_cache.append(torch.empty(shape, dtype=self.dtype, device=cfg.device))
            self.v_cache.append(torch.empty(shape, dtype=self.dtype, device=cfg.device))

    def is_sliding(self, layer):
        return self.layer_types[layer] == "sliding"
