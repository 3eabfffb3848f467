from .config import DecoderCacheConfig
from .gpu_cache import CrossAttnCachePool
from .host_stash import EncoderCacheStash


def build_cache_pools(hf_config: dict, max_tokens: int = 32768, max_requests: int = 16,
                      host_requests: int = 64, device="cuda"):
    cfg = DecoderCacheConfig.from_hf(hf_config)
    pool = CrossAttnCachePool(cfg, max_tokens, max_requests, device=device)
    stash = EncoderCacheStash(cfg, max_tokens * host_requests // max_requests, host_requests)
    return pool, stash
