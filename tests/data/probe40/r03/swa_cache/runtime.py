from .gpu_cache import HybridWindowCache
from .host_mirror import WindowedHostMirror
from .layers import window_slots
from .spec import KVGeometry


def build_hybrid_cache(model_cfg, sched_cfg, device="cuda"):
    geom = KVGeometry(
        num_kv_heads=model_cfg.num_key_value_heads,
        head_dim=model_cfg.head_dim,
        dtype_name=getattr(sched_cfg, "kv_dtype", "bfloat16"),
        tp_size=sched_cfg.tp_size,
    )
    swa_slots = window_slots(sched_cfg.max_running, model_cfg.sliding_window, sched_cfg.page_size)
    gpu = HybridWindowCache(
        geom,
        model_cfg.num_hidden_layers,
        model_cfg.sliding_window_pattern,
        full_slots=sched_cfg.max_total_tokens,
        swa_slots=swa_slots,
        device=device,
    )
    host = WindowedHostMirror(
        geom,
        model_cfg.num_hidden_layers,
        model_cfg.sliding_window_pattern,
        host_full_slots=sched_cfg.max_total_tokens * sched_cfg.host_factor,
        host_swa_slots=swa_slots * sched_cfg.host_factor,
    )
    return gpu, host
