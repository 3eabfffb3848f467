from dataclasses import dataclass

import torch

_KV_DTYPES = {"auto": None, "fp8": torch.float8_e4m3fn, "bf16": torch.bfloat16, "fp16": torch.float16}


@dataclass(frozen=True)
class ServeSettings:
    model_dtype: torch.dtype = torch.bfloat16
    kv_cache_dtype: str = "auto"
    n_layers: int = 32
    n_kv_heads: int = 8
    head_dim: int = 64
    page_size: int = 64
    gpu_pages: int = 4096
    host_pages: int = 8192

    @property
    def cache_dtype(self) -> torch.dtype:
        return _KV_DTYPES[self.kv_cache_dtype] or self.model_dtype
