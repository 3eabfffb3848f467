from .config import LatticeConfig
from .layout import LatentLayout
from .pools import LatentPagePool, LatentSwapSpace


class Scheduler:
    def __init__(self, config: LatticeConfig = None):
        self.config = config or LatticeConfig()
        self.pool = None
        self.swap = None

    def setup_memory(self):
        layout = LatentLayout.from_model(self.config.model)
        c = self.config.cache
        self.pool = LatentPagePool(layout, c.page_size, c.num_pages, device=c.device)
        self.swap = LatentSwapSpace(layout, c.page_size, c.swap_pages, device=c.swap_device)
        return self.pool, self.swap
