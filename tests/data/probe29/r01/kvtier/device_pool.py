"""Token-indexed KV pool with K and V fused per layer: [size + 1, 2, head_num, head_dim]."""
import torch


class FusedKVPool:
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device="cuda"):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        # index_put is not implemented for fp8 on every backend; keep raw bytes then.
        if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = dtype
        self.device = device
        # slot 0 is the padding slot written by dummy tokens
        self.kv_buffer = [
            torch.empty((size + 1, 2, head_num, head_dim), dtype=self.store_dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_key_buffer(self, layer_id):
        buf = self.kv_buffer[layer_id][:, 0]
        return buf.view(self.dtype) if self.store_dtype != self.dtype else buf

    def get_value_buffer(self, layer_id):
        buf = self.kv_buffer[layer_id][:, 1]
        return buf.view(self.dtype) if self.store_dtype != self.dtype else buf

    def set_kv_buffer(self, layer_id, loc, cache_k, cache_v):
        if self.store_dtype != self.dtype:
            cache_k = cache_k.view(self.store_dtype)
            cache_v = cache_v.view(self.store_dtype)
        self.kv_buffer[layer_id][loc, 0] = cache_k
        self.kv_buffer[layer_id][loc, 1] = cache_v

    def get_kv_size_bytes(self):
        return sum(b.numel() * b.element_size() for b in self.kv_buffer)
