import torch


class TokenKVStore:
    """Token-slot K/V, one tensor per layer (MHA / GQA models)."""

    cache_dtype = torch.bfloat16

    def __init__(self, cfg, device="cuda"):
        self.size = cfg.max_tokens
        self.num_layers = cfg.num_layers
        self._allocate(cfg, device)

    def _allocate(self, cfg, device):
        heads = cfg.num_kv_heads // cfg.tp_size
        shape = (self.size, heads, cfg.head_dim)
        self.k = [torch.empty(shape, dtype=self.cache_dtype, device=device) for _ in range(self.num_layers)]
        self.v = [torch.empty(shape, dtype=self.cache_dtype, device=device) for _ in range(self.num_layers)]

    def buffers(self):
        return self.k + self.v


class LatentKVStore(TokenKVStore):
    """MLA: the latent and the rope key share one row; heads are not sharded."""

    def _allocate(self, cfg, device):
        width = cfg.kv_lora_rank + cfg.qk_rope_head_dim
        self.kv_lora_rank = cfg.kv_lora_rank
        self.kv = [torch.empty((self.size, 1, width), dtype=self.cache_dtype, device=device)
                   for _ in range(self.num_layers)]

    def buffers(self):
        return list(self.kv)
