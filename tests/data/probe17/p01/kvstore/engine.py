import torch

from .config import ServeConfig
from .cpu_tier import CpuTier
from .gpu_cache import GpuKV


class Engine:
    def __init__(self, cfg: ServeConfig = None, device="cuda", host_device="cpu"):
        self.cfg = cfg or ServeConfig()
        self.gpu_cache = GpuKV(self.cfg, device=device)
        self.cpu_tier = CpuTier(
            self.gpu_cache,
            ratio=self.cfg.cache.cpu_ratio,
            pin=torch.cuda.is_available(),
            device=host_device,
        )
