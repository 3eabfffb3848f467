from dataclasses import dataclass

import torch


@dataclass
class DisaggConfig:
    num_hidden_layers: int = 48
    num_key_value_heads: int = 8
    head_dim: int = 128
    dtype: torch.dtype = torch.bfloat16
    kv_cache_dtype: str = "fp8_e4m3"
    prefill_tokens: int = 65536
    decode_tokens: int = 262144


FP8_KINDS = {"fp8": torch.float8_e4m3fn, "fp8_e4m3": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}


def is_fp8(cfg: DisaggConfig) -> bool:
    return cfg.kv_cache_dtype in FP8_KINDS
