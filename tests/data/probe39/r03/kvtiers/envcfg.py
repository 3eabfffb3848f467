"""Process-wide knobs, read once from the environment at import time."""

import os

import torch


def _env_int(name, default):
    return int(os.environ.get(name, default))


def _env_str(name, default):
    return os.environ.get(name, default).strip()


MODEL_DTYPE = _env_str("KVT_MODEL_DTYPE", "bfloat16")
KV_CACHE_DTYPE = _env_str("KVT_KV_CACHE_DTYPE", "float8_e4m3fn")
BLOCK_TOKENS = _env_int("KVT_BLOCK_TOKENS", 16)
HOST_TIER = _env_str("KVT_HOST_TIER", "pinned")
HOST_BLOCKS = _env_int("KVT_HOST_BLOCKS", 16384)
GPU_BLOCKS = _env_int("KVT_GPU_BLOCKS", 4096)


def torch_dtype(name):
    dt = getattr(torch, name, None)
    if not isinstance(dt, torch.dtype):
        raise ValueError(f"not a torch dtype: {name!r}")
    return dt
