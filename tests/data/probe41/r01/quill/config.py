from dataclasses import dataclass

import torch

_STR_TO_DTYPE = {
    "float16": torch.float16,
    "half": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass
class QuillConfig:
    num_layers: int = 24
    num_kv_heads: int = 8
    head_dim: int = 128
    model_dtype: str = "bfloat16"
    # "auto" means: same as model_dtype
    kv_cache_dtype: str = "fp8_e4m3"
    page_size: int = 16
    num_gpu_pages: int = 2048
    host_to_gpu_ratio: float = 2.0
    device: str = "cuda"

    @property
    def torch_dtype(self) -> torch.dtype:
        return _STR_TO_DTYPE[self.model_dtype]

    @property
    def kv_torch_dtype(self) -> torch.dtype:
        if self.kv_cache_dtype == "auto":
            return self.torch_dtype
        return _STR_TO_DTYPE[self.kv_cache_dtype]

    @property
    def num_host_pages(self) -> int:
        return int(self.num_gpu_pages * self.host_to_gpu_ratio)
