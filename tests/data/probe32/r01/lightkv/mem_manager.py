"""Token-level KV memory manager (LightLLM layout: K and V heads interleaved)."""
import torch


class MemoryManager:
    """Holds the KV buffer for every layer, one slot per token.

    Slot ``size`` is a dummy slot used by padded decode batches, so the buffer
    has ``size + 1`` rows.
    """

    def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda"):
        self.size = size
        self.dtype = dtype
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.device = device
        self.can_use_mem_size = size
        self._init_buffers(size, dtype, head_num, head_dim, layer_num)

    def _init_buffers(self, size, dtype, head_num, head_dim, layer_num):
        self.kv_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, head_dim), dtype=dtype, device=self.device
        )

    def get_cell_size(self):
        return 2 * self.head_num * self.head_dim * self.layer_num * self.dtype.itemsize

    def get_kv_buffer(self, layer_index):
        return self.kv_buffer[layer_index]


class INT8KVMemoryManager(MemoryManager):
    """int8 KV with one fp16 scale per token per head."""

    def __init__(self, size, dtype, head_num, head_dim, layer_num, device="cuda"):
        super().__init__(size, dtype, head_num, head_dim, layer_num, device)

    def _init_buffers(self, size, dtype, head_num, head_dim, layer_num):
        self.kv_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, head_dim), dtype=torch.int8, device=self.device
        )
        self.scale_buffer = torch.empty(
            (layer_num, size + 1, 2 * head_num, 1), dtype=dtype, device=self.device
        )

    def get_cell_size(self):
        per_layer = 2 * self.head_num * self.head_dim + 2 * self.head_num * self.dtype.itemsize
        return per_layer * self.layer_num
