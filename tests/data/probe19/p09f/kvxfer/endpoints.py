import torch

from .dtypes import KVDType


def padded_head_dim(cp) -> int:
    head_dim = cp.getint("model", "head_dim")
    align = cp.getint("cache", "pad_head_dim_to", fallback=0)
    return -(-head_dim // align) * align if align else head_dim


class PrefillKVSender:
    """Owns the prefill GPU pages and exposes them as transfer descriptors."""

    def __init__(self, cp, device="cuda"):
        self.num_layers = cp.getint("model", "num_layers")
        self.num_pages = cp.getint("prefill", "num_pages")
        self.page_size = cp.getint("cache", "page_size")
        dt = KVDType(cp.get("cache", "dtype"))
        shape = (self.num_pages, 2, self.page_size, cp.getint("model", "num_kv_heads"),
                 padded_head_dim(cp))
        self.kv_pages = [torch.zeros(shape, dtype=dt.torch_dtype, device=device)
                         for _ in range(self.num_layers)]

    def descriptors(self, page_ids):
        out = []
        for buf in self.kv_pages:
            item = buf[0].nbytes
            out.extend((buf.data_ptr() + p * item, item) for p in page_ids)
        return out


class DecodeKVReceiver:
    """Decode-side GPU pages that incoming descriptors are written into."""

    def __init__(self, cp, device="cuda"):
        self.num_layers = cp.getint("model", "num_layers")
        self.num_pages = cp.getint("decode", "num_pages")
        self.page_size = cp.getint("cache", "page_size")
        dt = KVDType(cp.get("cache", "dtype"))
        heads = cp.getint("model", "num_kv_heads")
        head_dim = padded_head_dim(cp)
        self.page_bytes = 2 * self.page_size * heads * head_dim * dt.itemsize
        self.kv_pages = [
            torch.zeros((self.num_pages, 2, self.page_size, heads, head_dim),
                        dtype=dt.torch_dtype, device=device)
            for _ in range(self.num_layers)
        ]

    def accept(self, num_layers: int) -> bool:
        return num_layers == self.num_layers
