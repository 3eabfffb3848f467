from dataclasses import dataclass

import torch

from .full_pool import FullAttnKVShelf
from .host_pool import HostShelfMirror


@dataclass
class HybridModelConfig:
    num_hidden_layers: int = 26
    # every sliding_window_pattern-th layer is a global (full attention) layer
    sliding_window_pattern: int = 6
    num_key_value_heads: int = 4
    head_dim: int = 256
    kv_dtype: torch.dtype = torch.bfloat16
    max_full_tokens: int = 32768
    host_tokens: int = 98304
    device: str = "cuda"
    host_device: str = "cpu"

    @property
    def full_attention_layer_ids(self):
        p = self.sliding_window_pattern
        return [i for i in range(self.num_hidden_layers) if (i + 1) % p == 0]

    @property
    def num_full_layers(self):
        return len(self.full_attention_layer_ids)


def init_memory_pools(config=None):
    config = config or HybridModelConfig()
    shelf = FullAttnKVShelf(config)
    host = HostShelfMirror(config, shelf)
    return shelf, host
