"""Flat byte regions registered with the transfer backend and viewed as structured tensors."""
from dataclasses import dataclass
from typing import List, Tuple

import torch

DTYPE_BY_NAME = {"int8": torch.int8, "fp8": torch.float8_e4m3fn, "bf16": torch.bfloat16,
                 "fp16": torch.float16, "fp32": torch.float32}


def itemsize(dtype: torch.dtype) -> int:
    if dtype.is_floating_point:
        return torch.finfo(dtype).bits // 8
    return torch.iinfo(dtype).bits // 8


@dataclass
class RegionDesc:
    name: str
    device: str
    nbytes: int
    page_bytes: int


class RegisteredRegion:

    def __init__(self, name: str, nbytes: int, page_bytes: int, device: str):
        assert nbytes % page_bytes == 0
        pin = device == "cpu" and torch.cuda.is_available()
        self.raw = torch.empty(nbytes, dtype=torch.uint8, device=device, pin_memory=pin)
        self.desc = RegionDesc(name, device, nbytes, page_bytes)

    def as_tensor(self, dtype: torch.dtype, shape: Tuple[int, ...]) -> torch.Tensor:
        return self.raw.view(dtype).view(shape)


def xfer_descs(regions: List[RegisteredRegion], page_ids: List[int]):
    return [(r.desc.name, p * r.desc.page_bytes, r.desc.page_bytes)
            for r in regions for p in page_ids]
