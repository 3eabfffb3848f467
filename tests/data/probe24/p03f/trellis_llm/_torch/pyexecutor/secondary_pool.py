import torch

from trellis_llm.llmapi import KvCacheConfig, Mapping, PretrainedConfig
from trellis_llm._torch.pyexecutor.pools import PrimaryBlockPool, _BINDING_DTYPES


class SecondaryBlockPool:
    """Host-memory pool that evicted primary blocks are offloaded to."""

    def __init__(self, primary: PrimaryBlockPool, config: PretrainedConfig,
                 kv_cfg: KvCacheConfig, mapping: Mapping, device: str = "cpu") -> None:
        self.tokens_per_block = primary.tokens_per_block
        self.num_blocks = kv_cfg.host_cache_size_tokens // self.tokens_per_block
        self.num_layers = primary.num_layers
        self.num_heads = max(1, config.num_key_value_heads // mapping.tp_size)
        self.head_dim = config.head_dim
        dtype = primary.kv_pool.dtype if primary.quantized else _BINDING_DTYPES[config.dtype]
        self.kv_pool = torch.empty(
            (self.num_blocks, self.num_layers, 2, self.tokens_per_block,
             self.num_heads, self.head_dim), dtype=dtype, device=device)
        # scale geometry is copied from the primary pool so the two always match
        self.kv_scale_pool = torch.empty(
            (self.num_blocks, *primary.kv_scale_pool.shape[1:]) if primary.quantized else (0,),
            dtype=primary.kv_scale_pool.dtype, device=device)

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.tokens_per_block
