# SPDX-License-Identifier: Apache-2.0
from dataclasses import dataclass

import torch


def get_dtype_size(dtype: torch.dtype) -> int:
    return torch.tensor([], dtype=dtype).element_size()


@dataclass(frozen=True)
class AttentionSpec:
    block_size: int
    num_kv_heads: int
    head_size: int
    dtype: torch.dtype

    @property
    def page_size_bytes(self) -> int:
        # K and V for one block of one layer.
        return (2 * self.block_size * self.num_kv_heads * self.head_size *
                get_dtype_size(self.dtype))


@dataclass(frozen=True)
class FullAttentionSpec(AttentionSpec):
    pass


@dataclass
class KVCacheTensor:
    size: int  # bytes
    shared_by: list[str]


@dataclass
class KVCacheConfig:
    num_blocks: int
    kv_cache_tensors: list[KVCacheTensor]
    kv_cache_spec: dict[str, AttentionSpec]


def get_kv_cache_config(vllm_config, kv_cache_spec: dict[str, AttentionSpec],
                        available_memory: int) -> KVCacheConfig:
    page_sizes = {spec.page_size_bytes for spec in kv_cache_spec.values()}
    assert len(page_sizes) == 1, "uniform page size expected"
    page_size = page_sizes.pop()
    num_blocks = int(available_memory // page_size // len(kv_cache_spec))
    override = vllm_config.cache_config.num_gpu_blocks_override
    if override is not None:
        num_blocks = override
    tensors = [
        KVCacheTensor(size=page_size * num_blocks, shared_by=[layer_name])
        for layer_name in kv_cache_spec
    ]
    return KVCacheConfig(num_blocks=num_blocks,
                         kv_cache_tensors=tensors,
                         kv_cache_spec=kv_cache_spec)
