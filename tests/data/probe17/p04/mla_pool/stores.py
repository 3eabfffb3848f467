import torch

from .base import RowStore


class LatentGpuStore(RowStore):
    def __init__(self, n_layers, capacity, kv_lora_rank=512, rope_dim=64, device="cuda"):
        self.kv_lora_rank = kv_lora_rank
        self.rope_dim = rope_dim
        super().__init__(n_layers, capacity, device=device)

    @property
    def row_width(self):
        return self.kv_lora_rank + self.rope_dim


class LatentCpuStore(RowStore):
    """Host side; shape is copied from the GPU store it shadows."""

    def __init__(self, gpu_store, capacity, pin=True, device="cpu"):
        self._width = gpu_store.row_width
        self.elem_dtype = gpu_store.elem_dtype
        super().__init__(gpu_store.n_layers, capacity, device=device, pin=pin)

    @property
    def row_width(self):
        return self._width


class PackedLatentCpuStore(RowStore):
    """Stores the bf16 latent row as raw bytes (for RDMA registration)."""

    elem_dtype = torch.uint8

    def __init__(self, gpu_store, capacity, pin=True, device="cpu"):
        itemsize = torch.empty(0, dtype=gpu_store.elem_dtype).element_size()
        self._width = gpu_store.row_width * itemsize
        super().__init__(gpu_store.n_layers, capacity, device=device, pin=pin)

    @property
    def row_width(self):
        return self._width
