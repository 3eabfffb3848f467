from .arena import DevicePageArena
from .config import QuillConfig
from .tiers import CpuSpillTier


def build_kv_tiers(cfg: QuillConfig = None, host_device: str = "cpu"):
    """Create the GPU arena and its CPU spill tier from one config."""
    cfg = cfg if cfg is not None else QuillConfig()
    arena = DevicePageArena(cfg)
    spill = CpuSpillTier(cfg, device=host_device)
    return arena, spill
