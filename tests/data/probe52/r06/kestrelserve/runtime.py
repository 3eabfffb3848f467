"""Runtime setup: device store plus host rows for hierarchical caching."""
from .kv.geometry import kv_geometry
from .kv.host_rows import Int4HostRows
from .kv.store import Int4KVStore


def init_int4_cache(cfg, sched, device="cuda", host_device="cpu"):
    geom = kv_geometry(cfg, sched.tp_size, group=sched.int4_group)
    store = Int4KVStore(geom, sched.max_tokens, sched.page_size, device=device)
    rows = Int4HostRows(geom, int(sched.max_tokens * sched.host_ratio), sched.page_size,
                        device=host_device)
    return store, rows
