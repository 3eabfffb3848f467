"""Secondary (host) block pool: blocks evicted from the primary pool are
offloaded here and onboarded again on reuse hits."""
import torch

from tllm_exec.bindings import KvCacheConfig
from tllm_exec.mapping import Mapping
from tllm_exec.model_config import ModelConfig
from tllm_exec.pyexecutor.resource_manager import KV_FACTOR


class SecondaryBlockPool:
    def __init__(self, num_blocks, num_local_layers, tokens_per_block,
                 num_kv_heads, head_size, dtype, device):
        self.num_blocks = num_blocks
        self.num_local_layers = num_local_layers
        self.tokens_per_block = tokens_per_block
        self.kv_cache_pool = torch.empty(
            (num_blocks, num_local_layers, KV_FACTOR, tokens_per_block,
             num_kv_heads, head_size), dtype=dtype.torch_dtype, device=device)
        self.kv_scale_pool = torch.empty(
            (num_blocks, num_local_layers, KV_FACTOR, tokens_per_block),
            dtype=torch.float32, device=device)


def make_secondary_pool(kv_cache_config: KvCacheConfig, model_config: ModelConfig,
                        mapping: Mapping, device="cpu") -> SecondaryBlockPool:
    num_local_layers = model_config.num_layers // mapping.pp_size
    kv_heads = max(model_config.num_kv_heads // mapping.world_size, 1)
    tpb = kv_cache_config.tokens_per_block
    per_block = num_local_layers * KV_FACTOR * tpb * (
        kv_heads * model_config.head_size * model_config.kv_cache_dtype.itemsize + 4)
    num_blocks = kv_cache_config.host_cache_size // per_block
    return SecondaryBlockPool(num_blocks, num_local_layers, tpb, kv_heads,
                              model_config.head_size, model_config.kv_cache_dtype,
                              device)
