import torch


class PagedFp8KVPool:
    """Paged KV pool; fp8 payload plus one fp32 scale per (token, head)."""

    def __init__(self, spec, num_pages):
        self.spec = spec
        self.num_pages = num_pages
        page_shape = (num_pages, spec.page_size, spec.kv_heads, spec.head_dim)
        scale_shape = (num_pages, spec.page_size, spec.kv_heads)
        self.k_cache = [torch.empty(page_shape, dtype=spec.store_dtype, device=spec.device) for _ in range(spec.num_layers)]
        self.v_cache = [torch.empty(page_shape, dtype=spec.store_dtype, device=spec.device) for _ in range(spec.num_layers)]
        if spec.quantized:
            self.k_scales = [torch.ones(scale_shape, dtype=spec.scale_dtype, device=spec.device) for _ in range(spec.num_layers)]
            self.v_scales = [torch.ones(scale_shape, dtype=spec.scale_dtype, device=spec.device) for _ in range(spec.num_layers)]
        else:
            self.k_scales = self.v_scales = None
