import torch


class CpuKVStash:
    cache_dtype = torch.bfloat16

    def __init__(self, cfg, device="cpu"):
        self.size = cfg.host_tokens
        self.num_layers = cfg.num_layers
        self.pin = device == "cpu" and torch.cuda.is_available()
        self._allocate(cfg, device)

    def _new(self, *shape, device):
        return torch.empty(shape, dtype=self.cache_dtype, device=device, pin_memory=self.pin)

    def _allocate(self, cfg, device):
        heads = cfg.num_kv_heads // cfg.tp_size
        self.k = [self._new(self.size, heads, cfg.head_dim, device=device) for _ in range(self.num_layers)]
        self.v = [self._new(self.size, heads, cfg.head_dim, device=device) for _ in range(self.num_layers)]

    def backup(self, store, src, dst):
        for layer in range(self.num_layers):
            self.k[layer][dst] = store.k[layer][src].cpu()
            self.v[layer][dst] = store.v[layer][src].cpu()


class CpuLatentStash(CpuKVStash):
    """Keeps latent and rope parts apart so the rope part can be re-rotated on reload."""

    def _allocate(self, cfg, device):
        rope = getattr(cfg, "qk_rope_head_dim", 64)
        self.rank = cfg.kv_lora_rank
        self.latent = [self._new(self.size, self.rank, device=device) for _ in range(self.num_layers)]
        self.rope = [self._new(self.size, rope, device=device) for _ in range(self.num_layers)]

    def backup(self, store, src, dst):
        for layer in range(self.num_layers):
            row = store.kv[layer][src, 0].cpu()
            self.latent[layer][dst] = row[:, :self.rank]
            self.rope[layer][dst] = row[:, self.rank:]
