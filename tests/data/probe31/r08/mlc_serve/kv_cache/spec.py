import math
from typing import Any, Dict

import torch

_DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "e4m3_float8": torch.float8_e4m3fn,
    "e5m2_float8": torch.float8_e5m2,
}


class KVCacheSpec:
    """Geometry of the paged KV cache for one tensor-parallel shard."""

    def __init__(self, chat_config: Dict[str, Any]):
        mc = chat_config["model_config"]
        kv = chat_config["kv_cache"]
        shards = chat_config["tensor_parallel_shards"]
        self.num_layers = mc["num_hidden_layers"]
        self.num_kv_heads = mc["num_key_value_heads"] // shards
        self.head_dim = mc.get("head_dim") or mc["hidden_size"] // mc["num_attention_heads"]
        self.page_size = kv["page_size"]
        self.kv_dtype = _DTYPES[kv["kv_dtype"]]
        self.scale_dtype = _DTYPES[kv["scale_dtype"]]
        self.max_num_sequence = kv["max_num_sequence"]
        self.context_window_size = chat_config["context_window_size"]
        self.prefill_chunk_size = chat_config["prefill_chunk_size"]

    @property
    def pages_per_sequence(self) -> int:
        return math.ceil(self.context_window_size / self.page_size)

    @property
    def num_total_pages(self) -> int:
        return self.pages_per_sequence * self.max_num_sequence
