import torch


class DraftKVPages:
    """Draft-head cache; shares page ids with the target so one block table serves both."""

    def __init__(self, cfg, target, device="cuda"):
        self.num_pages = target.num_pages
        self.page_size = target.page_size
        self.num_layers = cfg.draft_layers
        key_dtype = target.key_cache.dtype
        value_dtype = target.value_cache.dtype
        shape = (self.num_pages, self.page_size, target.heads, target.head_dim)
        self.key_cache = {}
        self.value_cache = {}
        self.key_scale = {}
        for i in range(self.num_layers):
            name = f"draft.layers.{i}.self_attn"
            self.key_cache[name] = torch.empty(shape, dtype=key_dtype, device=device)
            self.value_cache[name] = torch.empty(shape, dtype=value_dtype, device=device)
            self.key_scale[name] = torch.ones(shape[:-1], dtype=torch.float32, device=device)

    def copy_pages_from_target(self, target, pages, target_layer=-1):
        name = next(iter(self.key_cache))
        k, v, s = target.layer(target_layer)
        self.key_cache[name][pages] = k[pages].to(self.key_cache[name].dtype)
        self.value_cache[name][pages] = v[pages]
        self.key_scale[name][pages] = s[pages]
