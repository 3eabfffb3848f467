import torch

from .config import CacheSettings


class StackedKVCache:
    """Device-resident cache: one tensor per side with a leading layer axis."""

    def __init__(self, settings: CacheSettings):
        self.settings = settings
        self.dtype = settings.torch_dtype
        self.layers = settings.n_layers
        # one extra slot is reserved as the padding target for dummy writes
        self.slots = settings.token_capacity + 1
        shape = (self.layers, self.slots, self.local_heads, self.head_width)
        self.k_cache = torch.empty(shape, dtype=self.dtype, device=settings.gpu)
        self.v_cache = torch.empty(shape, dtype=self.dtype, device=settings.gpu)

    @property
    def local_heads(self) -> int:
        s = self.settings
        return max(1, s.kv_heads_total // s.tensor_parallel)

    @property
    def head_width(self) -> int:
        return self.settings.head_width

    def layer_view(self, idx: int):
        return self.k_cache[idx], self.v_cache[idx]

    def slot_bytes(self) -> int:
        per = self.local_heads * self.head_width * self.k_cache.element_size()
        return 2 * per * self.layers
