import enum

import torch


class CacheDType(enum.Enum):
    # value: (flag spelling, torch dtype, bytes per element)
    AUTO_FP16 = ("fp16", torch.float16, 2)
    AUTO_BF16 = ("bf16", torch.bfloat16, 2)
    FP8_E4M3 = ("fp8_e4m3", torch.float8_e4m3fn, 1)
    FP8_E5M2 = ("fp8_e5m2", torch.float8_e5m2, 1)

    @property
    def flag(self):
        return self.value[0]

    @property
    def torch_dtype(self):
        return self.value[1]

    @property
    def itemsize(self):
        return self.value[2]

    @classmethod
    def resolve(cls, flag, model_dtype):
        if flag == "auto":
            flag = {"float16": "fp16", "bfloat16": "bf16"}[model_dtype]
        for member in cls:
            if member.flag == flag:
                return member
        raise ValueError(flag)
