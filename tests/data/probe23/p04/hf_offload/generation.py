import os

from hf_offload.cache_utils import OffloadedStaticCache, StaticCache
from hf_offload.configuration_gemma import GemmaConfig


def prepare_static_cache(config=None, batch_size=4, max_cache_len=4096,
                         device="cuda", offload_device="cpu", offload=None):
    config = config or GemmaConfig()
    if offload is None:
        offload = os.environ.get("HF_OFFLOAD_KV", "1") == "1"
    if offload:
        return OffloadedStaticCache(config, max_batch_size=batch_size,
                                    max_cache_len=max_cache_len, device=device,
                                    offload_device=offload_device)
    return StaticCache(config, max_batch_size=batch_size,
                       max_cache_len=max_cache_len, device=device)
