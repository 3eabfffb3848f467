from typing import List, Optional, Tuple

import torch

BLOCK_SIZE: int = 16

# fp8 entries are kept in byte storage and reinterpreted by the attention kernels.
_KV_STORAGE = {
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
}


def kv_storage_dtype(kv_cache_dtype: str, dtype: torch.dtype) -> torch.dtype:
    if kv_cache_dtype == "auto":
        return dtype
    try:
        return _KV_STORAGE[kv_cache_dtype]
    except KeyError:
        raise ValueError(f"unsupported kv cache dtype {kv_cache_dtype!r}") from None


class KVCache:
    """Paged key/value cache for every layer of one model shard.

    Each layer owns a single tensor of shape
    ``(2, num_blocks, block_size, num_heads, head_size)``; index 0 holds keys,
    index 1 values.
    """

    def __init__(
        self,
        *,
        num_blocks: int,
        num_layers: int,
        num_heads: int,
        head_size: int,
        dtype: torch.dtype,
        device: torch.device,
        kv_cache_dtype: str = "auto",
        block_size: int = BLOCK_SIZE,
    ):
        self.dtype = dtype
        self.kv_cache_dtype = kv_cache_dtype
        self.storage_dtype = kv_storage_dtype(kv_cache_dtype, dtype)
        self.num_blocks = num_blocks
        self.block_size = block_size
        self.num_heads = num_heads
        self.head_size = head_size
        self.kv_cache: List[torch.Tensor] = [
            torch.empty(
                (2, num_blocks, block_size, num_heads, head_size),
                dtype=self.storage_dtype,
                device=device,
            )
            for _ in range(num_layers)
        ]
        self.k_scale: Optional[torch.Tensor] = None
        self.v_scale: Optional[torch.Tensor] = None
        if self.storage_dtype == torch.uint8:
            self.k_scale = torch.ones((), dtype=torch.float32, device=device)
            self.v_scale = torch.ones((), dtype=torch.float32, device=device)

    @property
    def device(self) -> torch.device:
        return self.kv_cache[0].device

    @property
    def num_layers(self) -> int:
        return len(self.kv_cache)

    def layer(self, layer_id: int) -> Tuple[torch.Tensor, torch.Tensor]:
        kv = self.kv_cache[layer_id]
        return kv[0], kv[1]

    def block_bytes(self, layer_id: int) -> torch.Tensor:
        """Flat byte view of every block of a layer, one row per block."""
        kv = self.kv_cache[layer_id]
        return kv.transpose(0, 1).reshape(self.num_blocks, -1).view(torch.uint8)
