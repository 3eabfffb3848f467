import os
from typing import Optional, Tuple

from exl_forge.cache import CacheQ
from exl_forge.config import ModelConfig
from exl_forge.prompt_cache import HostPromptCache


def load_model_and_caches(config_json: Optional[str] = None, device: str = "cuda",
                          host_device: str = "cpu") -> Tuple[ModelConfig, CacheQ, HostPromptCache]:
    config = ModelConfig(config_json)
    batch = int(os.environ.get("EXL_FORGE_BATCH", "4"))
    cache = CacheQ(config, batch_size=batch, device=device)
    prompt_cache = HostPromptCache(cache, num_entries=8, prefix_len=2048, device=host_device)
    return config, cache, prompt_cache
