"""Secondary (host) block pool used when block reuse spills past the primary pool."""
from typing import List

import torch

from .config import KvCacheConfig, Mapping, ModelConfig

# Bytes per element for every KV dtype string the builder can emit.
_KV_ELEM_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2, "int8": 1, "fp8": 1}


class SecondaryBlockPool:
    """Byte-addressed copy of primary blocks.

    Blocks are stored as raw bytes so that one pool implementation serves every KV
    dtype; each (block, layer) row holds K then V for all tokens of the block.
    """

    def __init__(self, model_config: ModelConfig, mapping: Mapping, kv_config: KvCacheConfig,
                 device: str = "cpu", pin_memory: bool = False):
        mapping.check_kv_heads(model_config.num_kv_heads)
        self.num_layers = model_config.num_layers // mapping.pp_size
        self.tokens_per_block = kv_config.tokens_per_block
        self.num_blocks = kv_config.max_secondary_blocks
        kv_dtype = (kv_config.kv_cache_dtype if kv_config.kv_cache_dtype is not None
                    else model_config.dtype)
        heads = -(-model_config.num_kv_heads // mapping.tp_size)
        head_bytes = (model_config.hidden_size // model_config.num_heads) * _KV_ELEM_BYTES[kv_dtype]
        self.bytes_per_block_layer = 2 * heads * self.tokens_per_block * head_bytes
        self.secondary_pool = torch.empty(
            (self.num_blocks, self.num_layers, self.bytes_per_block_layer),
            dtype=torch.uint8, device=device, pin_memory=pin_memory and device == "cpu")
        self._lru: List[int] = []

    @property
    def token_capacity(self) -> int:
        return self.num_blocks * self.tokens_per_block

    def offload(self, primary: torch.Tensor, src_block: int, dst_block: int) -> None:
        """Copy one primary block (all local layers) into secondary slot ``dst_block``."""
        raw = primary[src_block].reshape(self.num_layers, -1).view(torch.uint8)
        self.secondary_pool[dst_block].copy_(raw, non_blocking=True)
        self._lru.append(dst_block)

    def onboard(self, primary: torch.Tensor, src_block: int, dst_block: int) -> None:
        dst = primary[dst_block].reshape(self.num_layers, -1).view(torch.uint8)
        dst.copy_(self.secondary_pool[src_block], non_blocking=True)
