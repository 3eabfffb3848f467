import dataclasses
import functools

from .config import CacheSpec
from .pools import HostPageMirror, PagedFp8KVPool


def setup_cache_hierarchy(model: dict, opts: dict):
    spec = CacheSpec.from_model(
        model,
        tp_size=opts.get("tp_size", 1),
        page_size=opts.get("page_size", 16),
        cache_dtype=opts.get("kv_cache_dtype", "auto"),
        device=opts.get("device", "cuda"),
    )
    device_pool = PagedFp8KVPool(spec, num_pages=opts["num_gpu_pages"])

    host_spec = dataclasses.replace(spec, device=opts.get("host_device", "cpu"))
    make_host = functools.partial(HostPageMirror.from_spec, host_spec)
    if "host_bytes" in opts:
        host_pool = make_host(budget_bytes=opts["host_bytes"])
    else:
        host_pool = make_host(num_pages=opts["num_gpu_pages"] * opts.get("host_ratio", 2))
    return device_pool, host_pool
