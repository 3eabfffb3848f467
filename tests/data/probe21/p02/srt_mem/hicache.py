import torch


class MHATokenToKVPoolHost:
    """Host tier for hierarchical caching; layer axis second: (2, layer, token, head, dim)."""

    def __init__(self, device_pool, host_to_device_ratio, page_size, device="cpu"):
        self.device_pool = device_pool
        self.page_size = page_size
        self.dtype = device_pool.store_dtype
        self.head_num = device_pool.head_num
        self.head_dim = device_pool.head_dim
        self.layer_num = device_pool.layer_num
        size = int(device_pool.size * host_to_device_ratio)
        self.size = size - size % page_size
        self.kv_buffer = torch.empty(self.buffer_shape, dtype=self.dtype, device=device)

    @property
    def buffer_shape(self):
        return (2, self.layer_num, self.size, self.head_num, self.head_dim)

    @property
    def size_per_token(self):
        return self.head_dim * self.head_num * self.layer_num * self.dtype.itemsize * 2

    def load_to_device_per_layer(self, host_indices, device_indices, layer_id):
        self.device_pool.k_buffer[layer_id][device_indices] = self.kv_buffer[0, layer_id, host_indices]
        self.device_pool.v_buffer[layer_id][device_indices] = self.kv_buffer[1, layer_id, host_indices]

    def backup_from_device_all_layer(self, host_indices, device_indices):
        for i in range(self.layer_num):
            self.kv_buffer[0, i, host_indices] = self.device_pool.k_buffer[i][device_indices]
            self.kv_buffer[1, i, host_indices] = self.device_pool.v_buffer[i][device_indices]
