import os

from .kv_arena import KVArena
from .swap_space import SwapSpace

DEFAULTS = dict(n_layers=40, kv_heads=8, head_dim=128, kv_dtype="fp8_e4m3")


def build_cache(slots=200_000, swap_gib=8.0, device="cuda", host_device="cpu", **overrides):
    opts = {**DEFAULTS, **overrides}
    arena = KVArena(slots=slots, device=device, **opts)
    swap = SwapSpace(arena, swap_gib=swap_gib, pin=os.environ.get("KV_PIN", "0") == "1",
                     device=host_device)
    return arena, swap
