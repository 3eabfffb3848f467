"""hydra-serve: internal inference fork, KV arena + DRAM mirror for fast restarts."""
from .arena import HbmKVArena
from .dram_mirror import DramMirror
from .geometry import ArenaConfig
from .precision import KVPrecision

__all__ = ["ArenaConfig", "DramMirror", "HbmKVArena", "KVPrecision", "build_cache_pair"]


def build_cache_pair(device="cuda", precision: KVPrecision = KVPrecision.FP8_TOKEN, **overrides):
    """Arena on ``device`` plus its host mirror (meta when dry-running on meta)."""
    cfg = ArenaConfig(precision=precision, **overrides)
    mirror_device = "meta" if str(device) == "meta" else "cpu"
    return HbmKVArena(cfg, device=device), DramMirror(cfg, device=mirror_device)
