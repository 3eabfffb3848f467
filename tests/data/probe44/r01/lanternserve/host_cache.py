import torch


class HostKVMirror:
    """CPU-side copy of the GPU store used for prefix-cache eviction.

    Geometry is read straight off the device tensors so the two never drift.
    """

    def __init__(self, gpu_store, ratio, device="cpu"):
        ref = gpu_store.key_cache[0]
        _, heads, head_dim = ref.shape
        page = gpu_store.page_size
        slots = int(gpu_store.num_slots * ratio)
        self.num_slots = (slots // page) * page
        self.device = device
        layers = len(gpu_store.key_cache)
        shape = (layers, self.num_slots, heads, head_dim)
        self.k_host = torch.empty(shape, dtype=ref.dtype, device=device)
        self.v_host = torch.empty(shape, dtype=ref.dtype, device=device)

    def backup(self, gpu_store, host_slots, gpu_slots):
        for i in range(len(gpu_store.key_cache)):
            self.k_host[i, host_slots] = gpu_store.key_cache[i][gpu_slots].to(self.device)
            self.v_host[i, host_slots] = gpu_store.value_cache[i][gpu_slots].to(self.device)

    def restore(self, gpu_store, host_slots, gpu_slots):
        for i in range(len(gpu_store.key_cache)):
            gpu_store.key_cache[i][gpu_slots] = self.k_host[i, host_slots].to(gpu_store.device)
            gpu_store.value_cache[i][gpu_slots] = self.v_host[i, host_slots].to(gpu_store.device)
