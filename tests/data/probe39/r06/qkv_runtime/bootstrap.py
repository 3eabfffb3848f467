"""Startup: decode config, reserve device cache and host spill area."""

from .device_cache import QuantizedKVCache
from .schema import load_config
from .spill import HostSpillArea


def bootstrap_kv(raw_config=b"{}", gpu_slots=262144, spill_slots=1048576,
                 device="cuda", host_device="cpu"):
    cfg = load_config(raw_config)
    cache = QuantizedKVCache(cfg, gpu_slots, device=device)
    spill = HostSpillArea(cfg, spill_slots, device=host_device)
    return cache, spill


class Preemptor:
    def __init__(self, cache, spill):
        self.cache = cache
        self.spill = spill
        self.parked = {}

    def park(self, seq_id):
        dev_slots = self.cache.slots_of(seq_id)
        self.parked[seq_id] = self.spill.spill(self.cache, dev_slots)
        self.cache.release(seq_id)

    def unpark(self, seq_id):
        host_slots = self.parked[seq_id]
        dev_slots = self.cache.allocate(seq_id, len(host_slots))
        if dev_slots is None:
            return False
        self.spill.fill(self.cache, self.parked.pop(seq_id), dev_slots)
        return True
