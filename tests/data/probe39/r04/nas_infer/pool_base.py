"""Common skeleton for KV pools over heterogeneous decoder blocks."""

from abc import ABC, abstractmethod
from typing import Generic, List, Optional, TypeVar

T = TypeVar("T")


class KVPoolBase(ABC, Generic[T]):
    """Holds one K and one V entry per decoder block (None where the block
    has no attention). Subclasses decide where and how entries live."""

    def __init__(self, arch, capacity):
        self.arch = arch
        self.capacity = capacity
        self.k_layers: List[Optional[T]] = []
        self.v_layers: List[Optional[T]] = []
        for block in arch.blocks:
            if block.has_attention:
                self.k_layers.append(self._alloc_layer(block.n_kv_heads))
                self.v_layers.append(self._alloc_layer(block.n_kv_heads))
            else:
                self.k_layers.append(None)
                self.v_layers.append(None)

    @abstractmethod
    def _alloc_layer(self, n_kv_heads) -> T:
        ...

    @abstractmethod
    def bytes_per_token(self) -> int:
        ...

    def layer(self, idx):
        return self.k_layers[idx], self.v_layers[idx]

    def total_bytes(self):
        return self.bytes_per_token() * self.capacity
