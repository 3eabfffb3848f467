from .paged import PagedKVCache
from .spill import DiskSpillBuffer


def create_kv_state(device="cuda", spill_device="cpu", spill_pages=32768):
    cache = PagedKVCache(device=device)
    spill = DiskSpillBuffer.from_device(cache, spill_pages, device=spill_device)
    return cache, spill
