from .config import WrenModelConfig
from .stash import CpuKVStash, CpuLatentStash
from .store import LatentKVStore, TokenKVStore


def allocate_kv_stores(cfg: WrenModelConfig = None):
    cfg = cfg or WrenModelConfig()
    if cfg.use_mla:
        store_cls, stash_cls = LatentKVStore, CpuLatentStash
    else:
        store_cls, stash_cls = TokenKVStore, CpuKVStash
    return store_cls(cfg, device=cfg.device), stash_cls(cfg, device=cfg.host_device)
