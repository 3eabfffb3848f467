from .cache_q import QCacheSettings, QuantizedKVCache
from .offload import CPUOffloadCache


def create_generator_caches(settings: QCacheSettings = None, batch_size: int = 4,
                            offload_slots: int = 65536, device="cpu", offload_device="cpu"):
    settings = settings or QCacheSettings()
    cache = QuantizedKVCache(settings, batch_size=batch_size, device=device)
    offload = CPUOffloadCache(settings, num_slots=offload_slots, device=offload_device)
    return cache, offload


def cache_footprint(cache: QuantizedKVCache, offload: CPUOffloadCache) -> dict:
    def total(bufs):
        return sum(t.numel() * t.element_size() for t in bufs)
    dev = total(cache.key_states + cache.value_states + cache.key_scales + cache.value_scales)
    host = total(offload.k_data + offload.v_data + offload.k_scale + offload.v_scale)
    return {"device_bytes": dev, "offload_bytes": host,
            "device_slots": cache.num_slots(), "offload_slots": offload.num_slots}
