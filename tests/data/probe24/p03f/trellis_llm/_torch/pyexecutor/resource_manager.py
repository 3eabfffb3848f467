from typing import Optional

from trellis_llm.llmapi import KvCacheConfig, Mapping, PretrainedConfig
from trellis_llm._torch.pyexecutor.pools import PrimaryBlockPool
from trellis_llm._torch.pyexecutor.secondary_pool import SecondaryBlockPool


class KVCacheManager:
    def __init__(self, primary: PrimaryBlockPool,
                 secondary: Optional[SecondaryBlockPool]) -> None:
        self.primary_pool = primary
        self.secondary_pool = secondary

    @classmethod
    def from_config(cls, config: PretrainedConfig, kv_cache_config: KvCacheConfig,
                    mapping: Mapping, device: str = "cuda",
                    host_device: str = "cpu") -> "KVCacheManager":
        primary = PrimaryBlockPool(config, kv_cache_config, mapping, device=device)
        secondary = None
        if kv_cache_config.enable_block_reuse and kv_cache_config.host_cache_size_tokens > 0:
            secondary = SecondaryBlockPool(primary, config, kv_cache_config, mapping,
                                           device=host_device)
        return cls(primary, secondary)

    @classmethod
    def from_defaults(cls, device: str = "cuda", host_device: str = "cpu") -> "KVCacheManager":
        return cls.from_config(PretrainedConfig(), KvCacheConfig(), Mapping(),
                               device=device, host_device=host_device)
