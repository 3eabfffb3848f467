from functools import cached_property

import torch

_TORCH = {
    "bfloat16": torch.bfloat16, "bf16": torch.bfloat16,
    "float16": torch.float16, "fp16": torch.float16,
    "fp8_e4m3": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2,
}


class AttentionSpec:
    """Derived attention geometry for one TP rank."""

    def __init__(self, model, kv_dtype, tp):
        self.model = model
        self.kv_dtype_name = model["torch_dtype"] if kv_dtype == "auto" else kv_dtype
        self.tp = tp

    @cached_property
    def head_dim(self):
        return self.model.get("head_dim") or self.model["hidden_size"] // self.model["num_attention_heads"]

    @cached_property
    def kv_heads(self):
        return max(1, self.model["num_key_value_heads"] // self.tp)

    @cached_property
    def torch_dtype(self):
        return _TORCH[self.kv_dtype_name]

    @cached_property
    def local_layers(self):
        pattern = self.model.get("sliding_window_pattern", 1)
        return [i for i in range(self.model["num_hidden_layers"]) if (i + 1) % pattern != 0]

    @cached_property
    def global_layers(self):
        local = set(self.local_layers)
        return [i for i in range(self.model["num_hidden_layers"]) if i not in local]
