"""Instance bootstrap for a disaggregated prefill or decode worker."""
from .device_pool import PagedKVPool
from .spec import PoolSpec
from .transfer import make_transfer_buffer


def build_disagg_pools(device="cuda", transfer_device=None, role="prefill", spec=None):
    """Return ``(kv_pool, transfer_buffer)`` for this worker's pipeline stage."""
    spec = spec or PoolSpec()
    if transfer_device is None:
        transfer_device = "meta" if device == "meta" else "cpu"
    kv_pool = PagedKVPool(spec, device=device)
    return kv_pool, make_transfer_buffer(role, spec, device=transfer_device)
