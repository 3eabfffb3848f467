import torch


class DeviceKVStore:
    def __init__(self, num_hidden_layers: int, max_num_tokens: int, num_kv_heads: int,
                 head_dim: int, dtype: torch.dtype = torch.float16):
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.key_caches = []
        self.value_caches = []
        for _ in range(num_hidden_layers):
            self.key_caches.append(torch.empty((max_num_tokens, num_kv_heads, head_dim), dtype=dtype, device="cuda"))
            self.value_caches.append(torch.empty((max_num_tokens, num_kv_heads, head_dim), dtype=dtype, device="cuda"))
