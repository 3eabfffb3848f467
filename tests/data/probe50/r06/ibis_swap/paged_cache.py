import torch
from torch import nn

from ibis_swap.dtypes import CacheDType


class PagedKVCache(nn.Module):
    """Paged-attention v1 layout.

    key:   [num_blocks, heads, head_size // x, block_size, x]   (x = 16 bytes / itemsize)
    value: [num_blocks, heads, head_size, block_size]
    """

    def __init__(self, engine_cfg, model_cfg, device="cuda"):
        super().__init__()
        self.fmt = CacheDType.resolve(engine_cfg["kv_cache_dtype"], model_cfg["torch_dtype"])
        tp = engine_cfg["tensor_parallel_size"]
        self.num_heads = model_cfg["num_key_value_heads"] // tp
        self.head_size = model_cfg["hidden_size"] // model_cfg["num_attention_heads"]
        self.block_size = engine_cfg["block_size"]
        self.num_blocks = engine_cfg["num_gpu_blocks"]
        self.num_layers = model_cfg["num_hidden_layers"]
        self.x = 16 // self.fmt.itemsize
        self.device = device

        key_shape = (self.num_blocks, self.num_heads, self.head_size // self.x, self.block_size, self.x)
        value_shape = (self.num_blocks, self.num_heads, self.head_size, self.block_size)
        self.key_blocks = [torch.empty(key_shape, dtype=self.fmt.torch_dtype, device=device)
                           for _ in range(self.num_layers)]
        self.value_blocks = [torch.empty(value_shape, dtype=self.fmt.torch_dtype, device=device)
                             for _ in range(self.num_layers)]

    def extra_repr(self):
        return (f"layers={self.num_layers}, blocks={self.num_blocks}, heads={self.num_heads}, "
                f"head_size={self.head_size}, dtype={self.fmt.flag}")
