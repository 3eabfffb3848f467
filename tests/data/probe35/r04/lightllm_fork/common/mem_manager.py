import logging

import torch

logger = logging.getLogger(__name__)


class MemoryManager:
    def __init__(self, size, dtype, head_num, head_dim, layer_num, always_copy=False,
                 mem_fraction=0.9, device="cuda"):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.always_copy = always_copy
        self.dtype = dtype
        self.device = device
        self.mem_fraction = mem_fraction
        self.can_use_mem_size = size
        self.mem_state = torch.arange(0, self.size, dtype=torch.int32, device=device)
        self.mark_start = 0
        self.mark_end = self.size
        # One extra slot is reserved as the padding target for cuda graphs.
        self.HOLD_TOKEN_MEMINDEX = self.size
        self._init_buffers(self.size, dtype, head_num, head_dim, layer_num)

    def _init_buffers(self, size, dtype, head_num, head_dim, layer_num):
        self.kv_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, head_dim), dtype=dtype, device=self.device)

    def get_cell_size(self):
        return 2 * self.head_num * self.head_dim * self.layer_num * torch._utils._element_size(self.dtype)

    def alloc(self, need_size):
        if need_size > self.mark_end - self.mark_start:
            logger.error("not enough cache need_size %d left_size %d", need_size, self.can_use_mem_size)
            raise RuntimeError("kv cache exhausted")
        start, end = self.mark_start, self.mark_start + need_size
        self.mark_start += need_size
        self.can_use_mem_size -= need_size
        return self.mem_state[start:end]
