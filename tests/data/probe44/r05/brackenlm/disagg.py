from .dims import AttnDims
from .prefill_pool import PrefillKVPool
from .decode_pool import DecodeKVPool


def build_disagg_pair(dims=None):
    dims = dims or AttnDims()
    prefill = PrefillKVPool(dims)
    decode = DecodeKVPool(dims)
    return prefill, decode


def transfer(prefill, decode, src_idx, dst_idx):
    decode.import_pages(dst_idx, prefill.export_pages(src_idx))


class KVIndexPool:
    """Tracks free token indices on one side of the prefill/decode split."""

    def __init__(self, capacity):
        self.capacity = capacity
        self._free = list(range(capacity))

    def available(self):
        return len(self._free)

    def take(self, n):
        if n > len(self._free):
            raise RuntimeError("kv pool exhausted")
        out, self._free = self._free[:n], self._free[n:]
        return out

    def give_back(self, idx):
        self._free.extend(idx)
