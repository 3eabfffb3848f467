import torch

from .config import CacheConfig


class SlotKVCache:
    """All layers' K and V in one slab: [2, layers, slots + 1, heads, head_dim].

    Slot 0 is the padding slot that dummy / padded tokens write into.
    """

    def __init__(self, cfg: CacheConfig, device="cuda"):
        self.n_layers = cfg.num_layers
        self.num_slots = cfg.max_slots
        self.heads = cfg.local_kv_heads
        self.head_dim = cfg.head_dim
        self.dtype = cfg.torch_dtype
        self.device = device
        self.kv = torch.zeros(
            (2, self.n_layers, self.num_slots + 1, self.heads, self.head_dim),
            dtype=self.dtype,
            device=device,
        )

    def key(self, layer: int) -> torch.Tensor:
        return self.kv[0, layer]

    def value(self, layer: int) -> torch.Tensor:
        return self.kv[1, layer]

    def write(self, layer: int, slots: torch.Tensor, k: torch.Tensor, v: torch.Tensor):
        self.kv[0, layer, slots] = k.to(self.dtype)
        self.kv[1, layer, slots] = v.to(self.dtype)

    def slot_bytes(self) -> int:
        return 2 * self.n_layers * self.heads * self.head_dim * self.kv.element_size()
