"""Block pools.  One contiguous tensor per pool, block-major:

    [num_blocks, num_layers, 2 (K/V), tokens_per_block, kv_heads_per_rank, head_dim]

FP8 KV is stored as raw bytes with an fp32 scale per (block, layer, K/V, token, head).
"""
import torch

from trellis_llm.llmapi import KvCacheConfig, Mapping, PretrainedConfig

_BINDING_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}


def kv_heads_per_rank(config: PretrainedConfig, mapping: Mapping) -> int:
    return max(1, config.num_key_value_heads // mapping.tp_size)


def layers_per_rank(config: PretrainedConfig, mapping: Mapping) -> int:
    return config.num_hidden_layers // mapping.pp_size


class PrimaryBlockPool:
    def __init__(self, config: PretrainedConfig, kv_cfg: KvCacheConfig, mapping: Mapping,
                 device: str = "cuda") -> None:
        self.tokens_per_block = kv_cfg.tokens_per_block
        self.num_blocks = kv_cfg.max_tokens // kv_cfg.tokens_per_block
        self.num_layers = layers_per_rank(config, mapping)
        self.num_kv_heads = kv_heads_per_rank(config, mapping)
        self.head_dim = config.head_dim
        self.quantized = kv_cfg.dtype == "fp8"
        dtype = torch.uint8 if self.quantized else _BINDING_DTYPES[config.dtype]
        self.kv_pool = torch.empty(
            (self.num_blocks, self.num_layers, 2, self.tokens_per_block,
             self.num_kv_heads, self.head_dim), dtype=dtype, device=device)
        scale_shape = (self.num_blocks, self.num_layers, 2, self.tokens_per_block,
                       self.num_kv_heads) if self.quantized else (0,)
        self.kv_scale_pool = torch.empty(scale_shape, dtype=torch.float32, device=device)

    @property
    def num_tokens(self) -> int:
        return self.num_blocks * self.tokens_per_block
