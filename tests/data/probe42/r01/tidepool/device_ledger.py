import torch


class PagedKVLedger:
    """Device ledger: one [num_pages, page_size, heads, dim] tensor per layer."""

    def __init__(self, num_pages, page_size, dtype, head_num, head_dim, layer_num, device):
        self.num_pages = num_pages
        self.page_size = page_size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        self._create_buffers()

    def _create_buffers(self):
        self.k_buffer = []
        self.v_buffer = []
        for i in range(self.layer_num):
            self.k_buffer.append(
                torch.empty(
                    (self.num_pages, self.page_size, self.head_num, self.head_dim),
                    dtype=self.dtype,
                    device=self.device,
                )
            )
            self.v_buffer.append(
                torch.empty(
                    (self.num_pages, self.page_size, self.head_num, self.head_dim),
                    dtype=self.dtype,
                    device=self.device,
                )
            )

    @property
    def capacity_tokens(self):
        return self.num_pages * self.page_size

    def get_kv_buffer(self, layer_id):
        return self.k_buffer[layer_id], self.v_buffer[layer_id]
