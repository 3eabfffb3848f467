import torch


class TargetKVPages:
    """Target-model paged cache; keys may be stored in fp8 with a per-token, per-head scale."""

    def __init__(self, cfg, device="cuda"):
        self.num_pages = cfg.num_pages
        self.page_size = cfg.page_size
        self.num_layers = cfg.target_layers
        self.heads = cfg.num_kv_heads
        self.head_dim = cfg.head_dim
        if cfg.key_dtype.startswith("fp8"):
            key_dtype = torch.float8_e5m2 if cfg.key_dtype.endswith("e5m2") else torch.float8_e4m3fn
        else:
            key_dtype = getattr(torch, cfg.key_dtype)
        value_dtype = getattr(torch, cfg.value_dtype)
        shape = (self.num_pages, self.num_layers, self.page_size, self.heads, self.head_dim)
        self.key_cache = torch.empty(shape, dtype=key_dtype, device=device)
        self.value_cache = torch.empty(shape, dtype=value_dtype, device=device)
        self.key_scale = torch.ones(shape[:-1], dtype=torch.float32, device=device)

    def layer(self, i):
        return self.key_cache[:, i], self.value_cache[:, i], self.key_scale[:, i]
