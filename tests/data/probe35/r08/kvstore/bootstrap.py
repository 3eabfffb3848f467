import os

from kvstore.device_pool import DeviceKVPool, PoolConfig
from kvstore.tiers import KVTiers, OffloadTier


def init_kv_tiers(device="cuda", host_pages=None) -> KVTiers:
    cfg = PoolConfig(
        n_layers=int(os.environ.get("KV_N_LAYERS", 48)),
        n_kv_heads=8,
        head_dim=128,
        max_slots=524_288,
        page_size=16,
        kv_dtype=os.environ.get("KV_DTYPE", "fp8"),
    )
    gpu_pool = DeviceKVPool(cfg, device=device)
    host_pages = host_pages or 4 * gpu_pool.n_pages
    host_device = "meta" if str(device) == "meta" else "cpu"
    return KVTiers(gpu_pool, OffloadTier(gpu_pool, host_pages, device=host_device))
