"""Where the host mirror is built, from the record the device pool makes; and a zero-copy
entry over the device pool's own rows (a view of the device, not a mirror).

layout-audit test tree (tests/test_coverage.py), after SGLang 0.5.23 `hybrid_pool_assembler.py` and
`linker_pool_assembler.py` (`DevicePoolEntry`).
"""

from sglang.srt.mem_cache.memory_pool import PageRowKVPool
from sglang.srt.mem_cache.memory_pool_host import PageRowKVPoolHost


class DeviceRowsEntry:
    """The device pool's rows under one name for the transfer engine: holds no storage."""

    def __init__(self, device_pool, page_size: int):
        self.device_pool = device_pool
        self.page_size = page_size
        self.kv_buffer = list(device_pool.rows)


def build_kv_host_pool(kv_pool, server_args):
    return PageRowKVPoolHost(
        kv_pool.get_buffer_info(),
        server_args.hicache_ratio,
        device_capacity_tokens=kv_pool.size,
    )


def build_device_entry(kv_pool):
    if not isinstance(kv_pool, PageRowKVPool):
        raise TypeError(f"no page rows in {type(kv_pool).__name__}")
    return DeviceRowsEntry(kv_pool, kv_pool.page_size)
