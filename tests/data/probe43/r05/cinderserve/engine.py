from dataclasses import replace

from .configs import BlockCacheConfig, ModelShape, ServeArgs
from .gpu_blocks import BlockKVCache
from .swap_space import HostBlockMirror


def create_block_caches(args: ServeArgs = None, model: ModelShape = None,
                        cache_cfg: BlockCacheConfig = None):
    args = args or ServeArgs()
    model = model or ModelShape()
    cache_cfg = cache_cfg or BlockCacheConfig()
    gpu_cfg = replace(cache_cfg, cache_dtype=args.kv_cache_dtype)
    gpu = BlockKVCache(gpu_cfg, model, device=args.device)
    cpu = HostBlockMirror(cache_cfg, model, device=args.swap_device)
    return gpu, cpu
