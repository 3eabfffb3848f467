import enum

import torch


class DType(enum.Enum):
    bfloat16 = "bfloat16"
    float16 = "float16"
    float32 = "float32"
    float8_e4m3fn = "float8_e4m3fn"
    uint8 = "uint8"

    def to_torch(self) -> torch.dtype:
        return getattr(torch, self.value)

    @property
    def size_in_bytes(self) -> int:
        return {"bfloat16": 2, "float16": 2, "float32": 4,
                "float8_e4m3fn": 1, "uint8": 1}[self.value]
