import torch

from tgi_server.flash_causal_lm import FlashKVCachePool
from tgi_server.utils import _DTYPES


class DraftKVCachePool(FlashKVCachePool):
    """KV cache of the EAGLE draft head; shares block tables with the target model."""

    @classmethod
    def for_draft(cls, target: FlashKVCachePool, draft_config: dict, dtype: str,
                  world_size: int, device):
        num_heads = draft_config["num_key_value_heads"] // world_size
        head_size = draft_config["hidden_size"] // draft_config["num_attention_heads"]
        cache_dtype = _DTYPES.get(dtype, torch.float32)
        return cls(draft_config.get("num_hidden_layers", 1), target.num_blocks,
                   num_heads, head_size, cache_dtype, device)
