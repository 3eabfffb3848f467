"""Device-resident fp8 paged cache."""
import torch

from .cache_spec import kv_block_shape, scale_block_shape


class Fp8PagedCache:
    def __init__(self, spec, num_blocks, device="cuda"):
        self.spec = spec
        self.num_blocks = num_blocks
        kv_shape = kv_block_shape(spec, num_blocks)
        self.key_cache = [torch.empty(kv_shape, dtype=spec.kv_dtype, device=device) for _ in range(spec.num_layers)]
        self.value_cache = [torch.empty(kv_shape, dtype=spec.kv_dtype, device=device) for _ in range(spec.num_layers)]
        self.k_scale = self.v_scale = None
        if spec.kind.is_fp8:
            s_shape = scale_block_shape(spec, num_blocks)
            sdt = spec.kind.scale_dtype
            self.k_scale = [torch.ones(s_shape, dtype=sdt, device=device) for _ in range(spec.num_layers)]
            self.v_scale = [torch.ones(s_shape, dtype=sdt, device=device) for _ in range(spec.num_layers)]

    def layer(self, i):
        return self.key_cache[i], self.value_cache[i], self.k_scale[i], self.v_scale[i]
