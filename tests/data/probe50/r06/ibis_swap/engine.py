from ibis_swap.paged_cache import PagedKVCache
from ibis_swap.swap_arena import SwapArena

DEFAULT_ENGINE_CFG = {
    "kv_cache_dtype": "auto",
    "tensor_parallel_size": 1,
    "block_size": 16,
    "num_gpu_blocks": 4096,
    "swap_space_gib": 4,
}


def create_kv_spaces(model_cfg, engine_overrides=None, device="cuda", swap_device="cpu"):
    engine_cfg = dict(DEFAULT_ENGINE_CFG, **(engine_overrides or {}))
    if swap_device == "meta":
        engine_cfg["pin_memory"] = False
    cache = PagedKVCache(engine_cfg, model_cfg, device=device)
    arena = SwapArena(engine_cfg, model_cfg, device=swap_device)
    return cache, arena
