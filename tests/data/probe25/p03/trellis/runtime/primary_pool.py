import torch

from trellis.models.config import head_size, kv_cache_torch_dtype


class PrimaryBlockPool:
    """Device pool: [blocks, layers, 2(K/V), tokens_per_block, kv_heads * head_size].

    int8 KV keeps a per-token, per-head float32 dequant scale next to the data.
    """

    def __init__(self, model_cfg: dict, kv_settings, device="cuda"):
        self.num_layers = model_cfg["num_hidden_layers"]
        self.tokens_per_block = kv_settings.tokens_per_block
        self.num_kv_heads = model_cfg["num_key_value_heads"] // kv_settings.tensor_parallel
        self.head_size = head_size(model_cfg)
        self.dtype = kv_cache_torch_dtype(model_cfg, kv_settings)
        self.num_blocks = kv_settings.max_tokens // self.tokens_per_block
        base = (self.num_blocks, self.num_layers, 2, self.tokens_per_block)
        self.kv_pool = torch.empty(base + (self.num_kv_heads * self.head_size,),
                                   dtype=self.dtype, device=device)
        self.kv_scale_pool = torch.ones(base + (self.num_kv_heads,), dtype=torch.float32,
                                        device=device)
