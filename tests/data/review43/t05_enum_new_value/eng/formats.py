import enum

import torch


class KVFormat(enum.Enum):
    def __new__(cls, tag, torch_dtype, itemsize):
        obj = object.__new__(cls)
        obj._value_ = tag
        return obj

    def __init__(self, tag, torch_dtype, itemsize):
        self.torch_dtype = torch_dtype
        self.itemsize = itemsize

    BF16 = ("bf16", torch.bfloat16, 2)
    FP8 = ("fp8", torch.float8_e4m3fn, 1)

    @classmethod
    def parse(cls, tag):
        for member in cls:
            if member.value == tag:
                return member
        return cls.BF16
