import torch

from .mem_manager import MemoryManager


class INT8KVMemoryManager(MemoryManager):
    """Symmetric per-head int8 KV with one fp16 scale per (token, head)."""

    def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda", always_copy=True):
        super().__init__(size, dtype, head_num, head_dim, layer_num, device=device, always_copy=always_copy)

    def _init_buffers(self, size, dtype, head_num, head_dim, layer_num):
        self.kv_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, head_dim), dtype=torch.int8, device=self.device
        )
        self.scale_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, 1), dtype=dtype, device=self.device
        )

    def transfer_buffer_names(self):
        return ("kv_buffer", "scale_buffer")

    def get_cell_size(self):
        return 2 * self.head_num * (self.head_dim + 2) * self.layer_num
