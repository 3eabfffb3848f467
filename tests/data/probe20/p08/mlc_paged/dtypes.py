import enum

import torch


class KVDType(enum.Enum):
    F16 = "float16"
    BF16 = "bfloat16"
    E4M3 = "float8_e4m3fn"

    @property
    def as_torch(self) -> torch.dtype:
        return getattr(torch, self.value)

    @property
    def itemsize(self) -> int:
        return self.as_torch.itemsize
