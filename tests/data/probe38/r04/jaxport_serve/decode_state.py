"""Replacement for the jitted `init_decode_state` of the JAX server."""
from .host_mirror import HostLatentMirror
from .paged_state import PagedLatentCache
from .spec import LatentAttnSpec


def init_decode_state(spec: LatentAttnSpec = None, device="cpu", host_device="cpu"):
    spec = spec if spec is not None else LatentAttnSpec()
    cache = PagedLatentCache(spec, device=device)
    mirror = HostLatentMirror(spec, device=host_device)
    return {"cache": cache, "host": mirror, "step": 0}


def decode_state_summary(state) -> dict:
    cache, host = state["cache"], state["host"]
    spec = cache.spec
    return {
        "pages": cache.num_pages,
        "page_size": spec.page_size,
        "device_tokens": cache.num_pages * spec.page_size,
        "host_tokens": host.capacity,
        "row_width": spec.cache_width,
        "free_pages": len(cache.page_table.free),
    }
