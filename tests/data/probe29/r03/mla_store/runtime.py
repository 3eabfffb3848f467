"""Build both tiers for a model runner."""
from .configs import DeepseekV2Config
from .host_cache import HostMLACache
from .latent_cache import MLATokenCache


def build_kv(hf_config=None, max_tokens=96, host_mem_bytes=1 << 17, kv_dtype=None,
             device="cuda", host_device="cpu"):
    hf_config = hf_config or DeepseekV2Config()
    dev = MLATokenCache.from_config(hf_config, max_tokens, dtype=kv_dtype, device=device)
    host = HostMLACache.from_config(hf_config, host_mem_bytes, dtype=kv_dtype, device=host_device)
    return dev, host
