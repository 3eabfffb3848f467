from typing import Dict, List

import torch

from text_gen_server.layers.kv_cache import KVCache

MiB = 1 << 20


class HostSwapSpace:
    """Host-resident swap area for preempted sequences.

    Blocks are stored as raw bytes so that any cache dtype can be swapped
    without a cast on the host side.
    """

    def __init__(
        self,
        *,
        num_layers: int,
        num_heads: int,
        head_size: int,
        block_size: int,
        model_dtype: torch.dtype,
        swap_space_mb: float,
        pin_memory: bool = False,
    ):
        elem_bytes = torch.finfo(model_dtype).bits // 8
        self.block_size = block_size
        self.bytes_per_block = 2 * block_size * num_heads * head_size * elem_bytes
        self.num_host_blocks = max(
            1, int(swap_space_mb * MiB) // (self.bytes_per_block * num_layers)
        )
        self.kv_cache: List[torch.Tensor] = [
            torch.empty(
                (self.num_host_blocks, self.bytes_per_block),
                dtype=torch.uint8,
                device="cpu",
                pin_memory=pin_memory,
            )
            for _ in range(num_layers)
        ]
        self._free: List[int] = list(range(self.num_host_blocks))

    @property
    def num_free_blocks(self) -> int:
        return len(self._free)

    def allocate(self, n: int) -> List[int]:
        if n > len(self._free):
            raise RuntimeError("host swap space exhausted")
        taken, self._free = self._free[:n], self._free[n:]
        return taken

    def free(self, blocks: List[int]) -> None:
        self._free.extend(blocks)

    def swap_out(self, cache: KVCache, mapping: Dict[int, int]) -> None:
        for layer_id, host in enumerate(self.kv_cache):
            src = cache.block_bytes(layer_id)
            flat = host.view(-1)
            for gpu_block, host_block in mapping.items():
                row = src[gpu_block]
                start = host_block * self.bytes_per_block
                flat[start : start + row.numel()].copy_(row, non_blocking=True)

    def swap_in(self, cache: KVCache, mapping: Dict[int, int]) -> None:
        for layer_id, host in enumerate(self.kv_cache):
            dst = cache.block_bytes(layer_id)
            flat = host.view(-1)
            for host_block, gpu_block in mapping.items():
                row = dst[gpu_block]
                start = host_block * self.bytes_per_block
                row.copy_(flat[start : start + row.numel()], non_blocking=True)
