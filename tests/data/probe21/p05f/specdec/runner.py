from .draft_cache import DraftKVPages
from .settings import SpecConfig
from .target_cache import TargetKVPages


class SpecDecodeRunner:
    def __init__(self, cfg: SpecConfig = None, device="cuda"):
        self.cfg = cfg or SpecConfig()
        self.device = device
        self._init_caches()

    def _init_caches(self):
        self.target_cache = TargetKVPages(self.cfg, device=self.device)
        self.draft_cache = DraftKVPages(self.cfg, self.target_cache, device=self.device)

    def rollback(self, pages, accepted):
        return [p for i, p in enumerate(pages) if i < accepted]
