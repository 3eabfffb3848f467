from typing import Tuple

from mlcish.config import KVCacheConfig, ModelConfig


def local_kv_heads(model: ModelConfig, kv: KVCacheConfig) -> int:
    return model.num_key_value_heads // kv.tensor_parallel_shards


def kv_page_shapes(model: ModelConfig, kv: KVCacheConfig) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    """Per-layer page shapes for K and V, [pages, page_size, heads, dim]."""
    heads = local_kv_heads(model, kv)
    k = (kv.max_num_pages, kv.page_size, heads, model.qk_head_dim)
    v = (kv.max_num_pages, kv.page_size, heads, model.v_head_dim)
    return k, v
