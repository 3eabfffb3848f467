import torch

from .formats import KVFormat

NAMES = {"bf16": torch.bfloat16, "fp8": torch.float8_e4m3fn}


class DevicePool:
    def __init__(self, size, layer_num, heads, head_dim, kv_cache_dtype="auto", device="cuda"):
        self.size, self.layer_num = size, layer_num
        self.heads, self.head_dim = heads, head_dim
        self.kv_cache_dtype = kv_cache_dtype
        name = "bf16" if kv_cache_dtype in (None, "auto") else kv_cache_dtype
        self.k = [torch.empty((size, heads, head_dim), dtype=NAMES[name], device=device)
                  for _ in range(layer_num)]


class HostPool:
    def __init__(self, size, layer_num, heads, head_dim, kv_cache_dtype, device="cpu"):
        name = "bf16" if kv_cache_dtype in (None, "auto") else kv_cache_dtype
        fmt = KVFormat.parse(name)
        self.k = [torch.empty((size, heads * head_dim * fmt.itemsize), dtype=torch.uint8,
                              device=device) for _ in range(layer_num)]

    @classmethod
    def of(cls, pool, size, device="cpu"):
        return cls(size, pool.layer_num, pool.heads, pool.head_dim, pool.kv_cache_dtype,
                   device=device)
