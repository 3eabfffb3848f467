import torch


class MLATokenCache:
    """Latent (c_kv) and decoupled rope key stored in separate buffers so the
    absorbed-attention kernel can read the latent without a strided view."""

    def __init__(self, cfg, num_slots, device):
        self.num_slots = num_slots
        self.num_layers = cfg.num_layers
        self.kv_lora_rank = cfg.kv_lora_rank
        self.qk_rope_head_dim = cfg.qk_rope_head_dim
        self.dtype = cfg.dtype
        self.latent_cache = [
            torch.empty((num_slots, cfg.kv_lora_rank), dtype=cfg.dtype, device=device)
            for _ in range(cfg.num_layers)
        ]
        self.rope_cache = [
            torch.empty((num_slots, cfg.qk_rope_head_dim), dtype=cfg.dtype, device=device)
            for _ in range(cfg.num_layers)
        ]

    def bytes_per_token(self):
        dim = self.kv_lora_rank + self.qk_rope_head_dim
        return self.num_layers * dim * self.dtype.itemsize

    def get_kv_buffer(self, layer_id):
        return self.latent_cache[layer_id], self.rope_cache[layer_id]
