import torch


class MemoryManager:
    """Token-granular KV storage shared by every layer of one TP rank.

    ``kv_buffer`` is laid out as ``[layer_num, size + 1, 2 * head_num, head_dim]``;
    the first ``head_num`` heads are keys, the rest values. Row ``size`` is a
    scratch slot used for padded requests.
    """

    def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda", always_copy=False):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        self.device = device
        self.always_copy = always_copy
        self.mem_state = torch.arange(0, self.size, dtype=torch.int32, device="cpu")
        self.mark_start = 0
        self.mark_end = self.size
        self.can_use_mem_size = self.size
        self.HOLD_TOKEN_MEMINDEX = self.size
        self._init_buffers(self.size, dtype, head_num, head_dim, layer_num)

    def _init_buffers(self, size, dtype, head_num, head_dim, layer_num):
        self.kv_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, head_dim), dtype=dtype, device=self.device
        )

    def transfer_buffer_names(self):
        return ("kv_buffer",)

    def get_cell_size(self):
        return 2 * self.head_num * self.head_dim * self.layer_num * torch.tensor([], dtype=self.dtype).element_size()

    def alloc(self, need_size):
        if need_size > self.mark_end - self.mark_start:
            return None
        ans = self.mem_state[self.mark_start : self.mark_start + need_size]
        self.mark_start += need_size
        self.can_use_mem_size -= need_size
        return ans

    def free_all(self):
        self.can_use_mem_size = self.size
        self.mem_state[:] = torch.arange(0, self.size, dtype=torch.int32)
        self.mark_start = 0
        self.mark_end = self.size
