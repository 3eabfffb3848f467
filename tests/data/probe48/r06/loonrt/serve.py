"""Server configuration (INI file) and cache construction."""
from __future__ import annotations

import configparser
from types import SimpleNamespace
from typing import Any

from .caches import Fp8DeviceCache, Fp8SwapCache

DEFAULTS = {
    "tensor_parallel": "1",
    "gpu_slots": "262144",
    "swap_slots": "524288",
}


def load_serve_config(ini_text: str) -> SimpleNamespace:
    """Parse the ``[cache]`` section of loon.ini."""
    parser = configparser.ConfigParser(defaults=DEFAULTS)
    parser.read_string(ini_text)
    section = parser["cache"]
    return SimpleNamespace(
        tensor_parallel=section.getint("tensor_parallel"),
        gpu_slots=section.getint("gpu_slots"),
        swap_slots=section.getint("swap_slots"),
    )


def create_caches(model: Any, ini_text: str, device: str = "cuda", swap_device: str = "cpu"):
    serve = load_serve_config(ini_text)
    if model.num_key_value_heads % serve.tensor_parallel:
        raise ValueError("tensor_parallel must divide num_key_value_heads")
    gpu = Fp8DeviceCache.from_config(model, serve, device=device)
    swap = Fp8SwapCache.from_config(model, serve, device=swap_device)
    return gpu, swap
