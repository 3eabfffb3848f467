from dataclasses import dataclass
from typing import Tuple

import torch


@dataclass
class LMCacheEngineMetadata:
    model_name: str
    world_size: int
    worker_id: int
    fmt: str                       # "vllm": KV_2LTD chunks
    kv_dtype: torch.dtype
    kv_shape: Tuple[int, int, int, int, int]  # (num_layer, 2, chunk_size, num_kv_head, head_size)


def build_metadata(model_config, parallel_config, cache_config,
                   chunk_size: int) -> LMCacheEngineMetadata:
    num_layer = model_config["num_hidden_layers"]
    num_kv_head = model_config["num_key_value_heads"] // parallel_config["tensor_parallel_size"]
    head_size = model_config["hidden_size"] // model_config["num_attention_heads"]
    kv_dtype = getattr(torch, model_config["torch_dtype"])
    return LMCacheEngineMetadata(
        model_name=model_config["_name_or_path"],
        world_size=parallel_config["tensor_parallel_size"],
        worker_id=parallel_config.get("rank", 0),
        fmt="vllm",
        kv_dtype=kv_dtype,
        kv_shape=(num_layer, 2, chunk_size, num_kv_head, head_size),
    )
