from dataclasses import dataclass

import torch

_STORE_DTYPES = {
    "auto": torch.bfloat16,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "fp8": torch.uint8,
    "fp8_e4m3": torch.uint8,
}


@dataclass(frozen=True)
class CacheSpec:
    num_layers: int
    kv_heads: int
    head_dim: int
    page_size: int = 16
    cache_dtype: str = "auto"
    device: str = "cuda"

    @classmethod
    def from_model(cls, model: dict, tp_size: int = 1, **overrides) -> "CacheSpec":
        heads = model["num_attention_heads"]
        kv_heads = model.get("num_key_value_heads", heads)
        spec = cls(
            num_layers=model["num_hidden_layers"],
            kv_heads=max(1, kv_heads // tp_size),
            head_dim=model.get("head_dim", model["hidden_size"] // heads),
        )
        return spec.with_(**overrides) if overrides else spec

    def with_(self, **changes) -> "CacheSpec":
        return type(self)(**{**self.__dict__, **changes})

    @property
    def quantized(self) -> bool:
        return self.cache_dtype.startswith("fp8")

    @property
    def store_dtype(self) -> torch.dtype:
        return _STORE_DTYPES[self.cache_dtype]

    @property
    def scale_dtype(self) -> torch.dtype:
        return torch.float32
