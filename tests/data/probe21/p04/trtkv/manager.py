from .kv_types import KVDataType, KvCacheConfig
from .pools import PrimaryPool, SecondaryPool


class KVCacheManager:
    def __init__(self, config, primary, secondary):
        self.config = config
        self.primary = primary
        self.secondary = secondary
        self.free_primary = list(range(primary.num_blocks))
        self.free_secondary = list(range(secondary.num_blocks))

    @staticmethod
    def local_layers(cfg: KvCacheConfig):
        per_stage = cfg.num_layers // cfg.pp_size
        return range(cfg.pp_rank * per_stage, (cfg.pp_rank + 1) * per_stage)

    @classmethod
    def from_config(cls, cfg: KvCacheConfig = KvCacheConfig(), device="cuda"):
        scale_dtype = cfg.scale_dtype or KVDataType.FP16
        if cfg.kv_dtype.quantized and cfg.scale_dtype is None:
            scale_dtype = KVDataType.BF16
        primary = PrimaryPool(cls.local_layers(cfg), cfg.max_blocks, cfg.tokens_per_block,
                              cfg.num_kv_heads // cfg.tp_size, cfg.head_size,
                              cfg.kv_dtype.torch_dtype, scale_dtype.torch_dtype, device)
        secondary = SecondaryPool(primary, cfg.host_cache_size,
                                  device="meta" if device == "meta" else "cpu")
        return cls(cfg, primary, secondary)

    def evict_to_host(self, block):
        dst = self.free_secondary.pop()
        self.secondary.offload(self.primary, block, dst)
        self.free_primary.append(block)
        return dst
