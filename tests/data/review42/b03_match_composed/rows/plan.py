from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Plan:
    heads: int
    width: int
    dtype: torch.dtype


def make_plan(heads: int, width: int, kind: str) -> Plan:
    match kind:
        case "bf16" | "auto":
            dtype = torch.bfloat16
        case "fp16":
            dtype = torch.float16
        case "fp8" | "fp8_e4m3":
            dtype = torch.float8_e4m3fn
        case other:
            raise ValueError(f"unknown kv cache dtype {other!r}")
    return Plan(heads, width, dtype)
