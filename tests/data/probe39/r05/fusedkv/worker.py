"""Per-rank construction of the KV slab and its host mirror."""

from collections import OrderedDict

from .defaults import merge
from .host_mirror import PinnedKVMirror
from .slab import InterleavedKVSlab


def make_kv_storage(overrides=None, gpu_tokens=131072, host_tokens=524288,
                    device="cuda", host_device="cpu"):
    cfg = merge(overrides)
    slab = InterleavedKVSlab(cfg, gpu_tokens, device=device)
    mirror = PinnedKVMirror(cfg, host_tokens, device=host_device)
    return slab, mirror


class PrefixStore:
    """Keeps hot prefixes on the device and spills cold ones to the mirror."""

    def __init__(self, slab, mirror, max_resident=1024):
        self.slab = slab
        self.mirror = mirror
        self.max_resident = max_resident
        self.resident = OrderedDict()

    def touch(self, prefix_key, start, stop):
        self.resident[prefix_key] = (start, stop)
        self.resident.move_to_end(prefix_key)
        while len(self.resident) > self.max_resident:
            cold_key, (s, e) = self.resident.popitem(last=False)
            self.offload(cold_key, s, e)

    def offload(self, prefix_key, start, stop):
        self.mirror.save(prefix_key, self.slab, start, stop)

    def restore(self, prefix_key, start):
        if prefix_key not in self.mirror.index:
            return 0
        n = self.mirror.load(prefix_key, self.slab, start)
        self.touch(prefix_key, start, start + n)
        return n
