import torch

from .gpu_cache import GpuKV


class CpuTier:
    """Pinned host copy of the GPU slabs, used for offload / prefix reuse."""

    def __init__(self, gpu: GpuKV, ratio: float, pin: bool = True, device="cpu"):
        m = gpu.cfg.model
        self.slots = int(gpu.max_tokens * ratio)
        self.dtype = gpu.dtype
        row = (m.kv_heads, m.head_dim)
        self.k_slabs = []
        self.v_slabs = []
        for _ in range(m.n_layers):
            self.k_slabs.append(
                torch.empty((self.slots, *row), dtype=self.dtype, device=device, pin_memory=pin)
            )
            self.v_slabs.append(
                torch.empty((self.slots, *row), dtype=self.dtype, device=device, pin_memory=pin)
            )

    def copy_in(self, gpu: GpuKV, layer: int, src_idx, dst_idx):
        self.k_slabs[layer][dst_idx] = gpu.k_slabs[layer][src_idx].to("cpu")
        self.v_slabs[layer][dst_idx] = gpu.v_slabs[layer][src_idx].to("cpu")
