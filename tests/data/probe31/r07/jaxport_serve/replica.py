from typing import Optional, Tuple

from jaxport_serve.config import TransformerConfig, stage_layer_range
from jaxport_serve.kv.host_tier import HostKVTier
from jaxport_serve.kv.pages import StageKVPages


class LLMReplica:
    """Serve-deployment body: one pipeline stage of the model plus its caches."""

    def __init__(self, cfg: TransformerConfig, stage: int, num_stages: int, device: str):
        self.cfg = cfg
        self.stage = stage
        self.start_layer, self.end_layer = stage_layer_range(cfg, stage, num_stages)
        self.pages = StageKVPages(cfg, self.start_layer, self.end_layer, device=device)
        self.host = HostKVTier(cfg, self.pages)

    def reconfigure(self, user_config: dict) -> None:
        self.host.num_pages = int(user_config.get("host_pages", self.host.num_pages))


def build_stage_caches(
    cfg: Optional[TransformerConfig] = None,
    stage: int = 0,
    num_stages: int = 2,
    device: str = "cuda",
) -> Tuple[StageKVPages, HostKVTier]:
    """Construct a replica for ``stage`` and hand back its device pages and host tier."""
    replica = LLMReplica(cfg or TransformerConfig(), stage, num_stages, device)
    return replica.pages, replica.host
