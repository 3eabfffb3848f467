"""Token-granular KV memory manager (LightLLM style).

K and V heads are stored side by side in one tensor per layer stack:
``kv_buffer[layer, token, 0:head_num]`` holds K and
``kv_buffer[layer, token, head_num:2*head_num]`` holds V.
"""
import torch


class MemoryManager:
    def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda"):
        self.size = size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        self.mem_state = torch.arange(0, size, dtype=torch.int32, device=device)
        self.mark_start = 0
        self.can_use_mem_size = size
        self._init_buffers(size, dtype, head_num, head_dim, layer_num, device)

    def _init_buffers(self, size, dtype, head_num, head_dim, layer_num, device):
        self.kv_buffer = torch.empty(
            (layer_num, size, 2 * head_num, head_dim), dtype=dtype, device=device
        )

    def get_cell_size(self):
        return 2 * self.head_num * self.head_dim * self.layer_num * torch._utils._element_size(self.dtype)

    def alloc(self, need_size):
        if need_size > self.can_use_mem_size:
            raise RuntimeError(f"not enough kv slots: need {need_size}, have {self.can_use_mem_size}")
        ans = self.mem_state[self.mark_start : self.mark_start + need_size]
        self.mark_start += need_size
        self.can_use_mem_size -= need_size
        return ans

    def free_all(self):
        self.can_use_mem_size = self.size
        self.mark_start = 0
