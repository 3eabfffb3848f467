import configparser
from dataclasses import dataclass

import torch

DEFAULT_INI = """
[model]
num_layers = 32
num_attention_heads = 32
num_key_value_heads = 8
head_size = 128
dtype = bf16

[state_manager]
block_size = 64
num_blocks = 4096
tensor_parallel = 2

[speculative]
draft_num_layers = 1
draft_num_blocks = 4096
"""

_DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}


@dataclass(frozen=True)
class KVCacheConfig:
    block_size: int
    num_allocation_groups: int  # = number of transformer layers using this cache
    cache_shape: tuple          # (kv_heads_per_rank, head_size)
    cache_dtype: torch.dtype
    max_blocks: int


def parse_config(text: str = DEFAULT_INI) -> configparser.ConfigParser:
    cp = configparser.ConfigParser()
    cp.read_string(text)
    return cp


def shard_heads(total_heads: int, tp: int) -> int:
    if total_heads >= tp:
        assert total_heads % tp == 0
        return total_heads // tp
    return 1


def kv_cache_config_from_parser(cp: configparser.ConfigParser) -> KVCacheConfig:
    m, sm = cp["model"], cp["state_manager"]
    heads = shard_heads(m.getint("num_key_value_heads"), sm.getint("tensor_parallel"))
    return KVCacheConfig(
        block_size=sm.getint("block_size"),
        num_allocation_groups=m.getint("num_layers"),
        cache_shape=(heads, m.getint("head_size")),
        cache_dtype=_DTYPES[m["dtype"]],
        max_blocks=sm.getint("num_blocks"),
    )
