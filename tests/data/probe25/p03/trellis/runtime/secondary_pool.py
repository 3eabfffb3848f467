import torch

from trellis.models.config import head_size, str_dtype_to_torch


class SecondaryBlockPool:
    """Host-memory pool that reusable blocks are offloaded to when evicted from the device."""

    def __init__(self, model_cfg: dict, kv_settings, device="cpu"):
        self.num_layers = model_cfg["num_hidden_layers"]
        self.tokens_per_block = kv_settings.tokens_per_block
        self.num_kv_heads = model_cfg["num_key_value_heads"] // kv_settings.tensor_parallel
        self.head_size = head_size(model_cfg)
        self.dtype = str_dtype_to_torch(model_cfg["dtype"])
        elem = torch.tensor([], dtype=self.dtype).element_size()
        per_block = self.num_layers * 2 * self.tokens_per_block * self.num_kv_heads * (
            self.head_size * elem + 4)
        self.num_blocks = kv_settings.host_cache_size // per_block
        pin = str(device) == "cpu" and torch.cuda.is_available()
        base = (self.num_blocks, self.num_layers, 2, self.tokens_per_block)
        self.kv_pool = torch.empty(base + (self.num_kv_heads * self.head_size,),
                                   dtype=self.dtype, device=device, pin_memory=pin)
        self.kv_scale_pool = torch.empty(base + (self.num_kv_heads,), dtype=torch.float32,
                                         device=device, pin_memory=pin)
