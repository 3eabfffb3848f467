from typing import Optional

from mlcish.config import KVCacheConfig, ModelConfig
from mlcish.kv.paged_kv import SplitHeadPagedKV
from mlcish.spec.mtp_draft import MTPDraftKV


def create_engine_caches(model_cfg: Optional[dict] = None, kv_cfg: Optional[KVCacheConfig] = None,
                         speculative_mode: str = "mtp", device="cuda"):
    model = ModelConfig.from_dict(model_cfg or {})
    kv = kv_cfg or KVCacheConfig()
    target = SplitHeadPagedKV(model, kv, device=device)
    draft = None
    if speculative_mode == "mtp" and model.num_nextn_predict_layers > 0:
        draft = MTPDraftKV(model, kv, device=device)
    return target, draft
