import os

import torch

ATTENTION = os.getenv("ATTENTION", "paged")
_BLOCK_SIZES = {"flashinfer": 1, "flashdecoding": 256, "paged": 16}
BLOCK_SIZE: int = _BLOCK_SIZES[ATTENTION]
SYSTEM = "cuda" if torch.cuda.is_available() else "cpu"

KV_CACHE_DTYPES = {
    None: None,
    "auto": None,
    "fp8_e4m3fn": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}
