from typing import Optional

from tgilite.layers.paged_cache import FlashPagedCache
from tgilite.persist.disk_spill import DiskSpillBuffer
from tgilite.server_args import DEFAULT_MODEL_INFO, load_args


def warmup_and_allocate(model_info: Optional[dict] = None, overrides: Optional[dict] = None,
                        device="cuda", spill_device="cpu"):
    model_info = dict(DEFAULT_MODEL_INFO, **(model_info or {}))
    args = load_args(overrides)
    cache = FlashPagedCache(model_info, args, device=device)
    spill = DiskSpillBuffer(model_info, args, device=spill_device) if args["spill_pages"] else None
    return cache, spill
