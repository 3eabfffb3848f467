from typing import Optional

from zephyr_infer.inference.config import DEFAULT_INI, kv_cache_config_from_parser, parse_config
from zephyr_infer.inference.ragged.kv_cache import BlockedKVCache
from zephyr_infer.inference.spec.draft_cache import DraftKVCache


class InferenceEngineV2:
    def __init__(self, kv_cache: BlockedKVCache, draft_cache: Optional[DraftKVCache]) -> None:
        self.kv_cache = kv_cache
        self.draft_cache = draft_cache


def build_inference_engine(config_text: str = DEFAULT_INI, device: str = "cuda") -> InferenceEngineV2:
    cp = parse_config(config_text)
    kv_cfg = kv_cache_config_from_parser(cp)
    target = BlockedKVCache(kv_cfg, device=device)
    draft = None
    if cp.has_section("speculative"):
        spec = cp["speculative"]
        draft = DraftKVCache(kv_cfg, spec.getint("draft_num_layers"),
                             spec.getint("draft_num_blocks"), device=device)
    return InferenceEngineV2(target, draft)
