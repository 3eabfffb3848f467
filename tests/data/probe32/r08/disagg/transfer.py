"""Staging buffers for shipping KV pages from prefill to decode instances."""
import torch

from .spec import PoolSpec


def _segment_layout(spec: PoolSpec, num_slots: int):
    """(name, dtype, per-layer row shape) for each segment of the staging arena."""
    n_local = len(spec.layer_range)
    return [
        ("k_pages", spec.torch_dtype, (n_local, num_slots, spec.kv_heads, spec.head_dim)),
        ("v_pages", spec.torch_dtype, (n_local, num_slots, spec.kv_heads, spec.head_dim)),
        ("index_k_pages", torch.uint8, (n_local, num_slots, spec.index_bytes_per_token)),
    ]


def _nbytes(dtype, shape):
    n = dtype.itemsize
    for d in shape:
        n *= d
    return n


class KVTransferBuffer:
    """One registered byte arena carved into per-segment views (token-slot rows)."""

    pinned = False

    def __init__(self, spec: PoolSpec, device="cpu"):
        self.spec = spec
        self.layers = spec.layer_range
        self.num_slots = spec.transfer_chunk_pages * spec.page_size
        layout = _segment_layout(spec, self.num_slots)
        total = sum(_nbytes(dt, shape) for _, dt, shape in layout)
        pin = self.pinned and torch.device(device).type == "cpu" and torch.cuda.is_available()
        self.arena = torch.empty(total, dtype=torch.uint8, device=device, pin_memory=pin)
        offset = 0
        for name, dtype, shape in layout:
            size = _nbytes(dtype, shape)
            setattr(self, name, self.arena[offset:offset + size].view(dtype).view(shape))
            offset += size

    def pack(self, pool, page_ids):
        """Gather ``page_ids`` of every local layer into the staging rows."""
        n = len(page_ids) * self.spec.page_size
        for i in range(len(self.layers)):
            for name in ("k_pages", "v_pages", "index_k_pages"):
                src = getattr(pool, name)[i][page_ids]
                getattr(self, name)[i, :n] = src.reshape(getattr(self, name)[i, :n].shape).to(self.arena.device)

    def unpack(self, pool, page_ids):
        n = len(page_ids) * self.spec.page_size
        for i in range(len(self.layers)):
            for name in ("k_pages", "v_pages", "index_k_pages"):
                dst = getattr(pool, name)[i]
                dst[page_ids] = getattr(self, name)[i, :n].reshape(dst[page_ids].shape).to(dst.device)


class PrefillSendBuffer(KVTransferBuffer):
    pinned = True


class DecodeRecvBuffer(KVTransferBuffer):
    pinned = False


_BUFFERS = {"prefill": PrefillSendBuffer, "decode": DecodeRecvBuffer}


def make_transfer_buffer(role, spec, device="cpu"):
    return _BUFFERS[role](spec, device=device)
