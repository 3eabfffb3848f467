"""Arena selection and start-up wiring."""
from .arena import GpuKVArena, SwapKVArena
from .constants import GPU_CAPACITY, SWAP_CAPACITY

_ARENAS = {"gpu": GpuKVArena, "swap": SwapKVArena}


def arena_class(kind: str):
    try:
        return _ARENAS[kind]
    except KeyError:
        raise ValueError(f"unknown arena kind {kind!r}") from None


def build_kv(device="cuda", swap_device="cpu"):
    gpu = arena_class("gpu")(GPU_CAPACITY, device=device)
    swap = arena_class("swap")(SWAP_CAPACITY, device=swap_device)
    return gpu, swap
