import enum

import torch


class KVDType(enum.Enum):
    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"

    @property
    def torch_dtype(self) -> torch.dtype:
        return {"bf16": torch.bfloat16, "fp16": torch.float16, "fp8": torch.float8_e4m3fn}[self.value]

    @property
    def itemsize(self) -> int:
        return torch.empty((), dtype=self.torch_dtype).element_size()
