import torch

from .spec import CacheSpec

_SCALE_DTYPE = torch.float16


def _round_up(n: int, align: int) -> int:
    return (n + align - 1) // align * align


class SpillRegion:
    def __init__(self, spec: CacheSpec, num_blocks: int, device="cpu", align: int = 256):
        self.spec = spec
        self.num_blocks = num_blocks
        L, bs, h = spec.num_hidden_layers, spec.block_size, spec.kv_heads_local
        slots = num_blocks * bs
        kv_seg = L * slots * h * spec.head_size * spec.cache_itemsize
        scale_elt = torch.empty((), dtype=_SCALE_DTYPE, device="meta").element_size()
        scale_seg = L * slots * 2 * h * scale_elt

        self.k_offset = 0
        self.v_offset = _round_up(self.k_offset + kv_seg, align)
        self.scale_offset = _round_up(self.v_offset + kv_seg, align)
        self.nbytes = _round_up(self.scale_offset + scale_seg, align)
        self.buffer = torch.zeros(self.nbytes, dtype=torch.uint8, device=device)

        kv_shape = (L, num_blocks, bs, h, spec.head_size)
        self.k_spill = (
            self.buffer.narrow(0, self.k_offset, kv_seg).view(spec.cache_dtype).view(kv_shape)
        )
        self.v_spill = (
            self.buffer.narrow(0, self.v_offset, kv_seg).view(spec.cache_dtype).view(kv_shape)
        )
        self.scale_spill = (
            self.buffer.narrow(0, self.scale_offset, scale_seg)
            .view(_SCALE_DTYPE)
            .view(L, num_blocks, bs, 2, h)
        )
