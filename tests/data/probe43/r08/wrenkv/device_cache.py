import torch

from .buffers import NamedBuffers, dtype_of


class ShardedKVCache(NamedBuffers):
    def __init__(self, depth, num_kv_heads, qk_head_dim, v_head_dim, dtype_name,
                 tp_degree, device_slots, device, **_unused):
        self.depth = depth
        self.slots = device_slots
        self.kv_heads_local = max(1, num_kv_heads // tp_degree)
        alloc_kw = {"dtype": dtype_of(dtype_name), "device": device}
        self._register(
            "key_pages", torch.empty((depth, device_slots, self.kv_heads_local, qk_head_dim), **alloc_kw)
        )
        self._register(
            "value_pages", torch.empty((depth, device_slots, self.kv_heads_local, v_head_dim), **alloc_kw)
        )
