"""Speculative worker cache construction."""
from .draft_pool import EagleDraftKVPool
from .layout import MLAConfig, pp_layer_range
from .target_pool import MLAPagedKVPool


def build_caches(device="cuda", cfg=None, pp_rank=0, pp_size=2, num_pages=2048, page_size=64):
    cfg = cfg or MLAConfig()
    layer_range = pp_layer_range(cfg.num_hidden_layers, pp_rank, pp_size)
    target = MLAPagedKVPool(
        num_pages=num_pages,
        page_size=page_size,
        layer_range=layer_range,
        kv_lora_rank=cfg.kv_lora_rank,
        qk_rope_head_dim=cfg.qk_rope_head_dim,
        dtype=cfg.torch_dtype,
        device=device,
    )
    draft = EagleDraftKVPool(target, cfg, device=device)
    return target, draft
