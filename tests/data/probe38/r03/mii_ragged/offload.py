"""Host offload tier for cold KV blocks.

Blocks here are coarser (``host_block_size`` tokens) and stored layer-major as
raw bit patterns; a device block is copied in with ``.view`` so no numeric
conversion ever happens.
"""
import torch

# raw storage type by element width in bytes
_RAW_DTYPE_BY_SIZE = {1: torch.uint8, 2: torch.int16, 4: torch.int32}


def _raw_dtype_for(dtype: torch.dtype) -> torch.dtype:
    return _RAW_DTYPE_BY_SIZE[torch.empty((), dtype=dtype, device="meta").element_size()]


class HostBlockTier:
    def __init__(self, *, num_layers, kv_heads, head_size, src_dtype,
                 block_size, capacity_bytes, device="cpu", pin_memory=False):
        self.num_layers = num_layers
        self.block_size = block_size
        self.row_elems = 2 * kv_heads * head_size
        raw = _raw_dtype_for(src_dtype)
        elem = torch.empty((), dtype=raw, device="meta").element_size()
        per_block = num_layers * block_size * self.row_elems * elem
        self.num_blocks = max(1, capacity_bytes // per_block)
        alloc_kwargs = dict(dtype=raw, device=device)
        if pin_memory and device == "cpu" and torch.cuda.is_available():
            alloc_kwargs["pin_memory"] = True
        shape = [num_layers, self.num_blocks, block_size, self.row_elems]
        self.host_blocks = torch.zeros(shape, **alloc_kwargs)

    def store(self, layer: int, host_block: int, offset: int, kv: torch.Tensor) -> None:
        rows = kv.reshape(kv.shape[0], -1).view(self.host_blocks.dtype)
        self.host_blocks[layer, host_block, offset:offset + rows.shape[0]] = rows.cpu()

    def load(self, layer: int, host_block: int, offset: int, n: int,
             out: torch.Tensor) -> torch.Tensor:
        """Copy ``n`` token rows back into ``out`` (device dtype, any shape)."""
        rows = self.host_blocks[layer, host_block, offset:offset + n]
        out.view(-1).view(self.host_blocks.dtype).copy_(rows.reshape(-1), non_blocking=True)
        return out

    def tokens_capacity(self) -> int:
        return self.num_blocks * self.block_size
