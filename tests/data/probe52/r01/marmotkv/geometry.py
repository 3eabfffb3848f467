"""Per-token geometry of the compressed MLA cache."""
import math
from typing import NamedTuple

import torch

_KV_FORMATS = {
    "auto": None,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp8_e4m3": torch.float8_e4m3fn,
}


class LatentGeometry(NamedTuple):
    num_layers: int
    lora_rank: int
    rope_dim: int
    dtype: torch.dtype
    page_tokens: int = 1

    @property
    def row_width(self) -> int:
        return self.lora_rank + self.rope_dim

    @property
    def row_bytes(self) -> int:
        return self.row_width * self.dtype.itemsize

    def padded(self, tokens: int) -> int:
        return math.ceil(tokens / self.page_tokens) * self.page_tokens

    @classmethod
    def from_hf(cls, hf: dict, kv_format: str = "auto", page_tokens: int = 1):
        model_dtype = getattr(torch, hf.get("torch_dtype", "bfloat16"))
        dtype = _KV_FORMATS[kv_format] or model_dtype
        return cls(
            num_layers=hf["num_hidden_layers"],
            lora_rank=hf["kv_lora_rank"],
            rope_dim=hf["qk_rope_head_dim"],
            dtype=dtype,
            page_tokens=page_tokens,
        )
