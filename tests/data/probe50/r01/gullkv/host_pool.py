import math

import torch

GiB = 1 << 30

# bytes per stored element, keyed by the same strings the CLI accepts
_ELEM_BYTES = {
    "bfloat16": 2, "bf16": 2, "float16": 2, "fp16": 2, "half": 2, "float32": 4,
    "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1,
}
_FP32 = 4


class PinnedHostMirror:
    """Host DRAM tier for hierarchical caching.

    Rows are raw bytes so that one cudaMemcpyAsync per (layer, page) moves a
    token range; the layout per token must match the GPU pool exactly.
    """

    page_size = 64

    def __init__(self, layer_num, head_num, head_dim, kv_cache_dtype, model_dtype,
                 budget_gib, host_device="cpu"):
        self.layer_num = layer_num
        self.head_num = head_num
        self.head_dim = head_dim
        name = model_dtype if kv_cache_dtype in (None, "auto") else kv_cache_dtype
        self.elem_bytes = _ELEM_BYTES[name]
        self.with_scales = name.startswith("fp8")
        self.host_device = host_device

        self.data_row = self.head_num * self.head_dim * self.elem_bytes
        self.scale_row = self.head_num * _FP32 if self.with_scales else 0
        per_token = 2 * self.layer_num * (self.data_row + self.scale_row)
        tokens = int(budget_gib * GiB) // per_token
        self.num_pages = tokens // self.page_size
        self.size = self.num_pages * self.page_size
        self._alloc()

    @classmethod
    def from_device_pool(cls, dev_pool, budget_gib, host_device="cpu"):
        return cls(
            layer_num=dev_pool.layer_num,
            head_num=dev_pool.head_num,
            head_dim=dev_pool.head_dim,
            kv_cache_dtype=dev_pool.kv_cache_dtype,
            model_dtype=dev_pool.card.torch_dtype,
            budget_gib=budget_gib,
            host_device=host_device,
        )

    def _rows(self, width):
        pin = str(self.host_device) == "cpu"
        return [torch.empty((self.size, width), dtype=torch.uint8,
                            device=self.host_device, pin_memory=pin)
                for _ in range(self.layer_num)]

    def _alloc(self):
        self.k_rows = self._rows(self.data_row)
        self.v_rows = self._rows(self.data_row)
        if self.with_scales:
            self.k_scale_rows = self._rows(self.scale_row)
            self.v_scale_rows = self._rows(self.scale_row)
        else:
            self.k_scale_rows = self.v_scale_rows = None

    def pages_for(self, num_tokens):
        return math.ceil(num_tokens / self.page_size)
