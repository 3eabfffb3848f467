from typing import Optional

import torch


class KVGeometry:
    """Per-shard attention geometry, with derived sizes exposed as properties."""

    def __init__(self, num_hidden_layers: int, num_attention_heads: int,
                 num_key_value_heads: int, head_dim: int, dtype: torch.dtype,
                 tensor_parallel_shards: int = 1, v_head_dim: Optional[int] = None) -> None:
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_dim = head_dim
        self._v_head_dim = v_head_dim
        self.dtype = dtype
        self.tensor_parallel_shards = tensor_parallel_shards

    @property
    def v_head_dim(self) -> int:
        return self._v_head_dim if self._v_head_dim is not None else self.head_dim

    @property
    def kv_heads_per_shard(self) -> int:
        return max(1, self.num_key_value_heads // self.tensor_parallel_shards)

    @property
    def elem_size(self) -> int:
        return torch.empty((), dtype=self.dtype, device="meta").element_size()

    @property
    def k_token_bytes(self) -> int:
        return self.kv_heads_per_shard * self.head_dim * self.elem_size

    @property
    def v_token_bytes(self) -> int:
        return self.kv_heads_per_shard * self.v_head_dim * self.elem_size


# a DeepSeek-V2-Lite-like shard: K of nope + rope dims, V of its own head dim
DSV2_LITE = dict(num_hidden_layers=27, num_attention_heads=16, num_key_value_heads=16,
                 head_dim=192, v_head_dim=128, dtype=torch.bfloat16, tensor_parallel_shards=1)

LLAMA3_8B = dict(num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                 head_dim=128, dtype=torch.float16, tensor_parallel_shards=1)
