from .draft_pool import DraftKVPool
from .geometry import DraftGeometry
from .staging import DraftStagingBuffer


def build_draft_buffers(target_cfg: dict, spec_args: dict, device="cuda"):
    geom = DraftGeometry.from_target(
        target_cfg,
        tp_size=spec_args.get("tp_size", 1),
        draft_layers=spec_args.get("draft_layers", 1),
        dtype_name=spec_args.get("draft_kv_dtype"),
    )
    num_slots = spec_args["max_total_tokens"] + spec_args.get("num_draft_tokens", 8) * 64
    pool = DraftKVPool(geom, num_slots, device=device)
    stage = DraftStagingBuffer(geom, spec_args.get("stage_tokens", 4096), device=device)
    return pool, stage
