# SPDX-License-Identifier: Apache-2.0
import torch

from hydra_vllm.config import STR_DTYPE_TO_TORCH_DTYPE, VllmConfig
from hydra_vllm.kv_cache_interface import (AttentionSpec, FullAttentionSpec,
                                           KVCacheConfig)


class GPUModelRunner:

    def __init__(self, vllm_config: VllmConfig, device: torch.device):
        self.vllm_config = vllm_config
        self.model_config = vllm_config.model_config
        self.cache_config = vllm_config.cache_config
        self.device = device
        pc = vllm_config.parallel_config
        self.num_layers = self.model_config.get_num_layers(pc)
        self.num_kv_heads = self.model_config.get_num_kv_heads(pc)
        self.head_size = self.model_config.get_head_size()
        if self.cache_config.cache_dtype == "auto":
            self.kv_cache_dtype = STR_DTYPE_TO_TORCH_DTYPE[self.model_config.dtype]
        else:
            self.kv_cache_dtype = STR_DTYPE_TO_TORCH_DTYPE[self.cache_config.cache_dtype]
        self.layer_names = [
            f"model.layers.{i}.self_attn.attn" for i in range(self.num_layers)
        ]
        self.kv_caches: dict[str, torch.Tensor] = {}

    def get_kv_cache_spec(self) -> dict[str, AttentionSpec]:
        return {
            name: FullAttentionSpec(block_size=self.cache_config.block_size,
                                    num_kv_heads=self.num_kv_heads,
                                    head_size=self.head_size,
                                    dtype=self.kv_cache_dtype)
            for name in self.layer_names
        }

    def _allocate_kv_cache_tensors(self, kv_cache_config: KVCacheConfig):
        raw: dict[str, torch.Tensor] = {}
        for t in kv_cache_config.kv_cache_tensors:
            tensor = torch.zeros(t.size, dtype=torch.int8, device=self.device)
            for layer_name in t.shared_by:
                raw[layer_name] = tensor
        return raw

    def _reshape_kv_cache_tensors(self, kv_cache_config: KVCacheConfig,
                                  raw: dict[str, torch.Tensor]):
        kv_caches = {}
        for layer_name, spec in kv_cache_config.kv_cache_spec.items():
            raw_tensor = raw[layer_name]
            num_blocks = raw_tensor.numel() // spec.page_size_bytes
            # FlashAttention layout: (2, num_blocks, block_size, heads, head)
            shape = (2, num_blocks, spec.block_size, spec.num_kv_heads,
                     spec.head_size)
            kv_caches[layer_name] = raw_tensor.view(spec.dtype).view(shape)
        return kv_caches

    def initialize_kv_cache(self, kv_cache_config: KVCacheConfig):
        raw = self._allocate_kv_cache_tensors(kv_cache_config)
        self.kv_caches = self._reshape_kv_cache_tensors(kv_cache_config, raw)
        self.num_blocks = kv_cache_config.num_blocks
        return self.kv_caches
