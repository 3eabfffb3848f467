"""KV cache dtype selection."""
import enum

import torch


class CacheDType(enum.Enum):
    AUTO = "auto"
    FP8_E4M3 = "fp8_e4m3"
    FP8_E5M2 = "fp8_e5m2"

    @property
    def is_fp8(self):
        return self is not CacheDType.AUTO

    def storage_dtype(self, model_dtype):
        return {
            CacheDType.AUTO: model_dtype,
            CacheDType.FP8_E4M3: torch.float8_e4m3fn,
            CacheDType.FP8_E5M2: torch.float8_e5m2,
        }[self]

    @property
    def scale_dtype(self):
        return torch.float32 if self.is_fp8 else None
