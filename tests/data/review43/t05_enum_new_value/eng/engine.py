from .pools import DevicePool, HostPool


def build(size, layers, device="cuda", host="cpu"):
    pool = DevicePool(size, layers, 8, 128, kv_cache_dtype="fp8", device=device)
    return pool, HostPool.of(pool, 2 * size, device=host)
