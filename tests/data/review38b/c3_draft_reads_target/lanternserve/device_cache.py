import torch


class GpuKVStore:
    """Token-indexed KV cache living on the accelerator.

    Slot 0..page_size-1 is a scratch page used for padded tokens, so the
    store holds max_tokens + page_size slots.
    """

    def __init__(self, cfg):
        self.page_size = cfg.page_size
        self.num_slots = cfg.max_tokens + cfg.page_size
        self.dtype = getattr(torch, cfg.kv_dtype)
        self.device = cfg.device
        shape = (self.num_slots, cfg.kv_heads_per_rank, cfg.head_dim)
        self.key_cache = []
        self.value_cache = []
        for _ in range(cfg.num_hidden_layers):
            self.key_cache.append(torch.empty(shape, dtype=self.dtype, device=self.device))
            self.value_cache.append(torch.empty(shape, dtype=self.dtype, device=self.device))

    @property
    def num_layers(self):
        return len(self.key_cache)

    def write(self, layer, slots, k, v):
        self.key_cache[layer][slots] = k
        self.value_cache[layer][slots] = v

    def bytes_per_token(self):
        k = self.key_cache[0]
        return 2 * self.num_layers * k[0].numel() * k.element_size()
