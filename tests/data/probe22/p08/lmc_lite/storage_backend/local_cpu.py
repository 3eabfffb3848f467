"""Preallocated pinned chunk pool. Each chunk holds `chunk_size` tokens of K and V
for every layer in KV_2LTD order: [2, num_layers, chunk_size, hidden_kv]."""
from collections import OrderedDict

import torch

from . import register_backend


class LocalCPUBackend:

    def __init__(self, config, metadata, device: str = "cpu"):
        num_layer, _, chunk_size, num_kv_head, head_size = metadata.kv_shape
        self.chunk_size = chunk_size
        self.num_layers = num_layer
        self.dtype = metadata.kv_dtype
        self.chunk_shape = (2, num_layer, chunk_size, num_kv_head * head_size)
        elem = torch.empty((), dtype=self.dtype, device="meta").element_size()
        chunk_bytes = 2 * num_layer * chunk_size * num_kv_head * head_size * elem
        self.num_chunks = int(config.max_local_cpu_size * 1024 ** 3) // chunk_bytes
        pin = device == "cpu" and torch.cuda.is_available()
        self.kv_chunks = torch.empty((self.num_chunks, ) + self.chunk_shape,
                                     dtype=self.dtype, device=device, pin_memory=pin)
        self.free = list(range(self.num_chunks))
        self.hot_cache: "OrderedDict[str, int]" = OrderedDict()

    def put(self, key: str, kv_chunk: torch.Tensor) -> None:
        if not self.free:
            _, slot = self.hot_cache.popitem(last=False)
            self.free.append(slot)
        slot = self.free.pop()
        self.kv_chunks[slot].copy_(kv_chunk, non_blocking=True)
        self.hot_cache[key] = slot

    def get(self, key: str):
        slot = self.hot_cache.get(key)
        return None if slot is None else self.kv_chunks[slot]


register_backend("local_cpu")(LocalCPUBackend)
