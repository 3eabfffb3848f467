from dataclasses import dataclass

import torch

_STORAGE = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp8": torch.float8_e4m3fn}


@dataclass(frozen=True)
class Plan:
    heads: int
    width: int
    dtype: torch.dtype


def make_plan(heads: int, width: int, kind: str) -> Plan:
    return Plan(heads, width, _STORAGE[kind])
