import torch

from . import register_pool


@register_pool("mla_host")
class LatentHostPool:
    """Pinned host pool for MLA latents; single tensor with a layer axis."""

    def __init__(
        self,
        size,
        layer_num,
        kv_lora_rank,
        qk_rope_head_dim,
        device="cpu",
        dtype=torch.bfloat16,
        page_size=1,
        **_unused,
    ):
        self.size = size - size % page_size
        self.layer_num = layer_num
        self.dtype = dtype
        self.kv_cache_dim = kv_lora_rank + qk_rope_head_dim
        self.kv_store = torch.empty(
            (layer_num, self.size, 1, self.kv_cache_dim), dtype=dtype, device=device
        )

    def get_page(self, layer_id, start, page_size):
        return self.kv_store[layer_id, start : start + page_size]
