from dataclasses import dataclass, field

import torch

_DTYPE_TABLE = {
    "fp16": torch.float16,
    "half": torch.float16,
    "bf16": torch.bfloat16,
    "fp32": torch.float32,
    "fp8": torch.float8_e4m3fn,
}


def resolve_dtype(name: str) -> torch.dtype:
    try:
        return _DTYPE_TABLE[name.lower()]
    except KeyError as exc:
        raise ValueError(f"unknown cache dtype {name!r}") from exc


@dataclass
class CacheSettings:
    n_layers: int = 16
    kv_heads_total: int = 8
    head_width: int = 128
    tensor_parallel: int = 2
    cache_dtype: str = "fp16"
    token_capacity: int = 4096
    host_ratio: float = 2.0
    gpu: str = "cuda"
    cpu: str = "cpu"
    extra: dict = field(default_factory=dict)

    @property
    def torch_dtype(self) -> torch.dtype:
        return resolve_dtype(self.cache_dtype)
