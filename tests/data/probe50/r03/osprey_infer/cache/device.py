import torch

from osprey_infer.cache.registry import register_pool
from osprey_infer.cache.sizing import dtype_from_name, pp_layer_range


class _PagedBase:
    def __init__(self, cfg, hf, device):
        self.cfg = cfg
        self.device = device
        self.start_layer, self.end_layer = pp_layer_range(
            hf["num_hidden_layers"], cfg.pp_size, cfg.pp_rank)
        self.num_local_layers = self.end_layer - self.start_layer
        self.page_size = cfg.page_size
        self.num_pages = -(-cfg.max_total_tokens // cfg.page_size)
        self.dtype_name = hf["torch_dtype"] if cfg.kv_cache_dtype == "auto" else cfg.kv_cache_dtype
        self.dtype = dtype_from_name(self.dtype_name)

    def local(self, layer_id):
        return layer_id - self.start_layer


@register_pool("mla")
class LatentPagedPool(_PagedBase):
    """One stacked tensor [local_layers, pages, page_size, kv_lora_rank + rope_dim]."""

    def __init__(self, cfg, hf, device="cuda"):
        super().__init__(cfg, hf, device)
        self.kv_lora_rank = hf["kv_lora_rank"]
        self.qk_rope_head_dim = hf["qk_rope_head_dim"]
        self.latent_dim = self.kv_lora_rank + self.qk_rope_head_dim
        self.latent_kv = torch.zeros(
            (self.num_local_layers, self.num_pages, self.page_size, self.latent_dim),
            dtype=self.dtype, device=device)

    def layer_view(self, layer_id):
        return self.latent_kv[self.local(layer_id)]


@register_pool("mha")
class HeadPagedPool(_PagedBase):
    def __init__(self, cfg, hf, device="cuda"):
        super().__init__(cfg, hf, device)
        heads = hf.get("num_key_value_heads", hf["num_attention_heads"]) // cfg.tp_size
        head_dim = hf.get("head_dim") or hf["hidden_size"] // hf["num_attention_heads"]
        shape = (self.num_local_layers, 2, self.num_pages, self.page_size, heads, head_dim)
        self.kv = torch.zeros(shape, dtype=self.dtype, device=device)
