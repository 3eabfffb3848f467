import torch


class HostKVStore:
    def __init__(self, gpu_store, num_host_tokens: int):
        self.key_caches = []
        self.value_caches = []
        for _ in gpu_store.key_caches:
            self.key_caches.append(torch.empty(
                (num_host_tokens, gpu_store.num_kv_heads, gpu_store.head_dim),
                dtype=gpu_store.dtype, pin_memory=True))
            self.value_caches.append(torch.empty(
                (num_host_tokens, gpu_store.num_kv_heads, gpu_store.head_dim),
                dtype=gpu_store.dtype, pin_memory=True))

    def load(self, gpu_store, layer, host_idx, dev_idx):
        gpu_store.key_caches[layer][dev_idx] = self.key_caches[layer][host_idx].cuda(non_blocking=True)
        gpu_store.value_caches[layer][dev_idx] = self.value_caches[layer][host_idx].cuda(non_blocking=True)
