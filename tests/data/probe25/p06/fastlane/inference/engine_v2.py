from typing import Optional

from fastlane.inference.config_v2 import EngineConfigV2
from fastlane.inference.model_impl import PolicyModelShape
from fastlane.ragged.blocked_kv import BlockedKVStore
from fastlane.ragged.offload_staging import StagingKVBuffer


class RaggedEngineLite:
    def __init__(self, model: PolicyModelShape, cfg: EngineConfigV2, kv_store, staging):
        self.model = model
        self.cfg = cfg
        self.kv_store = kv_store
        self.staging = staging

    @classmethod
    def build(cls, model: Optional[PolicyModelShape] = None, cfg: Optional[EngineConfigV2] = None,
              device="cuda", staging_device="cpu"):
        model = model or PolicyModelShape()
        cfg = cfg or EngineConfigV2()
        spec = model.kv_cache_config(cfg)
        kv_store = BlockedKVStore([spec], cfg.state_manager.memory_config, device=device)
        staging = StagingKVBuffer(model, cfg, device=staging_device)
        return cls(model, cfg, kv_store, staging)
