"""Cache format names understood by both sides of a transfer."""
from __future__ import annotations

import torch

# fp8 latents are stored as raw bytes so the transfer engine can memcpy them
STORE_DTYPES = {
    "auto": None,
    "bf16": torch.bfloat16,
    "fp8_e4m3": torch.uint8,
    "fp8_e5m2": torch.uint8,
}

MODEL_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}

LATENT_QUANT_TILE = 128


def store_dtype(cache_dtype: str, model_dtype: str) -> torch.dtype:
    dt = STORE_DTYPES[cache_dtype]
    return MODEL_DTYPES[model_dtype] if dt is None else dt


def is_quantized(cache_dtype: str) -> bool:
    return cache_dtype.startswith("fp8")
