import torch


class DeviceKVPool:
    """Token-indexed K/V buffers on the accelerator, one tensor per layer."""

    def __init__(self, size, page_size, dtype, head_num, head_dim, layer_num, device):
        self.size = size
        self.page_size = page_size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        # slot 0..page_size-1 is reserved as the padding page
        n = size + page_size
        self.k_buffer = [
            torch.zeros((n, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]
        self.v_buffer = [
            torch.zeros((n, head_num, head_dim), dtype=dtype, device=device)
            for _ in range(layer_num)
        ]

    def get_kv_buffer(self, layer_id):
        return self.k_buffer[layer_id], self.v_buffer[layer_id]

    def bytes_per_token(self):
        return 2 * self.layer_num * self.head_num * self.head_dim * self.dtype.itemsize
