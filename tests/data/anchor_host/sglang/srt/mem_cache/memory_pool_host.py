"""Host mirrors: the KV host sizes the tier; the index-K host takes it as its anchor and copies
its capacity. Buggy: the index-K host's rows hold one head where the device keeps head_num.

layout-audit test tree (tests/test_anchor_host.py), after SGLang 0.5.23 `pool_host/mha.py`.
"""

import torch

from sglang.srt.mem_cache.memory_pool import IndexKOnlyPool, MHATokenToKVPool


class MHATokenToKVPoolHost:
    def __init__(self, device_pool: MHATokenToKVPool, host_to_device_ratio: float,
                 device: str = "cpu"):
        self.page_size = device_pool.page_size
        self.page_num = int(device_pool.size * host_to_device_ratio) // self.page_size + 1
        self.size = self.page_num * self.page_size
        self.layer_num = device_pool.layer_num
        shape = (self.layer_num, self.size, device_pool.head_num, device_pool.head_dim)
        self.k_buffer = torch.empty(shape, dtype=device_pool.store_dtype, device=device)
        self.v_buffer = torch.empty(shape, dtype=device_pool.store_dtype, device=device)


class IndexKOnlyPoolHost:
    def __init__(self, device_pool: IndexKOnlyPool, anchor_host: MHATokenToKVPoolHost,
                 device: str = "cpu"):
        self.page_size = anchor_host.page_size
        self.size = anchor_host.size
        self.page_num = anchor_host.page_num
        self.layer_num = device_pool.layer_num
        self.k_buffer = torch.empty(
            (self.layer_num, self.size, device_pool.head_dim),
            dtype=device_pool.store_dtype,
            device=device,
        )
