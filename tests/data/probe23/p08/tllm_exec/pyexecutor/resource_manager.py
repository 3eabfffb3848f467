import torch

from tllm_exec.bindings import CacheType, KvCacheConfig
from tllm_exec.mapping import Mapping
from tllm_exec.model_config import ModelConfig

KV_FACTOR = 2  # K and V


def get_num_kv_heads_per_rank(model_config: ModelConfig, mapping: Mapping) -> int:
    # kv heads are replicated when tp_size > num_kv_heads
    return max(model_config.num_kv_heads // mapping.tp_size, 1)


class KVCacheManager:
    """Primary (GPU) block pool. Layout per block:
    [num_local_layers, kv_factor, tokens_per_block, kv_heads_per_rank, head_size]
    plus a per-token fp32 dequant scale pool for FP8 KV."""

    def __init__(self, kv_cache_config: KvCacheConfig, kv_cache_type: CacheType,
                 model_config: ModelConfig, mapping: Mapping, device="cuda"):
        self.kv_cache_type = kv_cache_type
        self.mapping = mapping
        self.tokens_per_block = kv_cache_config.tokens_per_block
        self.local_layers = mapping.pp_layers(model_config.num_layers)
        self.num_local_layers = len(self.local_layers)
        self.num_kv_heads_per_rank = get_num_kv_heads_per_rank(model_config, mapping)
        self.head_size = model_config.head_size
        self.dtype = model_config.kv_cache_dtype
        self.blocks_in_primary_pool = kv_cache_config.max_tokens // self.tokens_per_block
        self.kv_cache_pool = torch.empty(
            (self.blocks_in_primary_pool, self.num_local_layers, KV_FACTOR,
             self.tokens_per_block, self.num_kv_heads_per_rank, self.head_size),
            dtype=self.dtype.torch_dtype, device=device)
        self.kv_scale_pool = torch.empty(
            (self.blocks_in_primary_pool, self.num_local_layers, KV_FACTOR,
             self.tokens_per_block), dtype=torch.float32, device=device)

    def get_buffers(self, layer_idx: int):
        local = self.local_layers.index(layer_idx)
        return self.kv_cache_pool[:, local]
