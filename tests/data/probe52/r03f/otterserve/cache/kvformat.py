"""Supported KV element formats: (flag, storage dtype, element dtype)."""
import enum

import torch


class KVFormat(enum.Enum):
    BF16 = ("bf16", torch.bfloat16, torch.bfloat16)
    FP16 = ("fp16", torch.float16, torch.float16)
    FP8_E4M3 = ("fp8_e4m3", torch.uint8, torch.float8_e4m3fn)
    FP8_E5M2 = ("fp8_e5m2", torch.uint8, torch.float8_e5m2)

    def __init__(self, flag, storage, element):
        self.flag = flag
        self.storage = storage
        self.element = element

    @classmethod
    def parse(cls, flag: str, model_dtype: torch.dtype) -> "KVFormat":
        if flag == "auto":
            return cls.BF16 if model_dtype == torch.bfloat16 else cls.FP16
        for member in cls:
            if member.flag == flag:
                return member
        raise ValueError(f"unknown kv format {flag!r}")
