"""Entry point used by the worker to set up both tiers."""

from .config import KvbmConfig
from .device_pool import DeviceBlockPool
from .host_pool import HostBlockPool


def build_block_managers(config=None, device="cuda", host_device=None):
    """Return (device_pool, host_pool)."""
    config = config or KvbmConfig()
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    device_pool = DeviceBlockPool(config, config.num_device_blocks, device=device)
    host_pool = HostBlockPool(config, config.num_host_blocks, device=host_device)
    return device_pool, host_pool


def evict_to_host(device_pool, host_pool, device_block_ids, seq_hashes):
    """Move cold device blocks to the host tier and return their host block ids."""
    host_ids = [host_pool.lookup.get(h) for h in seq_hashes]
    fresh = [i for i, hid in enumerate(host_ids) if hid is None]
    next_id = len(host_pool.lookup)
    for i in fresh:
        host_ids[i] = next_id % host_pool.num_blocks
        next_id += 1
    if fresh:
        host_pool.offload(device_pool, [device_block_ids[i] for i in fresh],
                          [host_ids[i] for i in fresh], [seq_hashes[i] for i in fresh])
    device_pool.release(device_block_ids)
    return host_ids
