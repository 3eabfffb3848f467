import torch


class HostKVMirror:
    """Host-side copy of the device pool used for hierarchical caching.

    Layout is (k/v, layer, token, head, dim) so a page of tokens can be
    written back for all layers with a single strided copy.
    """

    def __init__(self, device_pool, ratio, device="cpu"):
        self.device_pool = device_pool
        self.layer_num = device_pool.layer_num
        self.head_num = device_pool.head_num
        self.head_dim = device_pool.head_dim
        self.dtype = device_pool.dtype
        self.page_size = device_pool.page_size
        size = int(device_pool.size * ratio)
        self.size = size - size % self.page_size
        self.kv_data = torch.empty(
            (2, self.layer_num, self.size, self.head_num, self.head_dim),
            dtype=self.dtype,
            device=device,
        )

    @property
    def k_data(self):
        return self.kv_data[0]

    @property
    def v_data(self):
        return self.kv_data[1]

    def backup_from_device(self, host_idx, device_idx):
        for i in range(self.layer_num):
            k, v = self.device_pool.get_kv_buffer(i)
            self.kv_data[0, i, host_idx] = k[device_idx]
            self.kv_data[1, i, host_idx] = v[device_idx]
