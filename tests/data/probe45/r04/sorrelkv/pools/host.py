import torch


class HostPageMirror:
    """Host-memory copy of device pages, for offload and prefix reuse."""

    def __init__(self, k_cache, v_cache, k_scales, v_scales, page_size):
        self.k_cache = k_cache
        self.v_cache = v_cache
        self.k_scales = k_scales
        self.v_scales = v_scales
        self.page_size = page_size

    @classmethod
    def from_spec(cls, spec, num_pages=None, budget_bytes=None):
        per_page = spec.page_size * spec.kv_heads * 2 * (
            spec.head_dim * spec.store_dtype.itemsize
            + (spec.scale_dtype.itemsize if spec.quantized else 0)
        ) * spec.num_layers
        if num_pages is None:
            num_pages = budget_bytes // per_page
        L = spec.num_layers
        payload = (L, num_pages, spec.page_size, spec.kv_heads, spec.head_dim)
        k = torch.empty(payload, dtype=spec.store_dtype, device=spec.device)
        v = torch.empty(payload, dtype=spec.store_dtype, device=spec.device)
        ks = vs = None
        if spec.quantized:
            scales = (L, num_pages, spec.page_size, spec.kv_heads)
            ks = torch.empty(scales, dtype=spec.scale_dtype, device=spec.device)
            vs = torch.empty(scales, dtype=spec.scale_dtype, device=spec.device)
        return cls(k, v, ks, vs, spec.page_size)
