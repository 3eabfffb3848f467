"""KV arenas. `BaseKVArena` owns the geometry; subclasses pick placement and layout."""
import torch

from .constants import HEAD_DIM, KV_DTYPE, NUM_KV_HEADS, NUM_LAYERS, TP_SIZE


class BaseKVArena:
    """Per-layer K and V stores for `capacity` tokens on one tensor-parallel rank."""

    def __init__(self, capacity, depth=NUM_LAYERS, kv_heads=NUM_KV_HEADS, head_dim=HEAD_DIM,
                 tp=TP_SIZE, dtype=KV_DTYPE, device="cuda"):
        self.capacity = capacity
        self.depth = depth
        self.kv_heads = kv_heads
        self.tp = tp
        self.heads = kv_heads // tp
        self.head_dim = head_dim
        self.dtype = dtype
        self.device = device
        self.k_store = [self._alloc(self._k_shape()) for _ in range(depth)]
        self.v_store = [self._alloc(self._v_shape()) for _ in range(depth)]

    def _k_shape(self):
        return (self.capacity, self.heads, self.head_dim)

    def _v_shape(self):
        return (self.capacity, self.heads, self.head_dim)

    def _alloc(self, shape):
        return torch.empty(shape, dtype=self.dtype, device=self.device)

    def footprint(self):
        return sum(t.numel() * t.element_size() for t in self.k_store + self.v_store)

    def __repr__(self):
        return (f"{type(self).__name__}(capacity={self.capacity}, depth={self.depth}, "
                f"heads={self.heads}, head_dim={self.head_dim}, dtype={self.dtype})")


class GpuKVArena(BaseKVArena):
    def _alloc(self, shape):
        # zero-fill so padded slots never leak NaNs into attention
        return torch.zeros(shape, dtype=self.dtype, device=self.device)

    def gather(self, layer, slots):
        return self.k_store[layer][slots], self.v_store[layer][slots]


class SwapKVArena(BaseKVArena):
    """Host swap space. K is kept head-major so the prefetcher streams one head at a time."""

    def _k_shape(self):
        return (self.kv_heads, self.capacity, self.head_dim)

    def swap_out(self, gpu_arena, layer, gpu_slots, swap_slots):
        k = gpu_arena.k_store[layer][gpu_slots].transpose(0, 1)
        self.k_store[layer][:, swap_slots] = k.to(self.device)
        self.v_store[layer][swap_slots] = gpu_arena.v_store[layer][gpu_slots].to(self.device)

    def swap_in(self, gpu_arena, layer, swap_slots, gpu_slots):
        k = self.k_store[layer][:, swap_slots].transpose(0, 1)
        gpu_arena.k_store[layer][gpu_slots] = k.to(gpu_arena.device)
        gpu_arena.v_store[layer][gpu_slots] = self.v_store[layer][swap_slots].to(gpu_arena.device)
