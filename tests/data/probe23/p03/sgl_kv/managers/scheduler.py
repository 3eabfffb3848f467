import torch

from sgl_kv.configs.model_config import AttentionArch, ModelConfig
from sgl_kv.mem_cache.hiradix_cache import HiRadixCache
from sgl_kv.mem_cache.memory_pool import MLATokenToKVPool, NSATokenToKVPool
from sgl_kv.server_args import ServerArgs

_KV_DTYPES = {"auto": torch.bfloat16, "bf16": torch.bfloat16,
              "fp8_e4m3": torch.float8_e4m3fn, "fp8_e5m2": torch.float8_e5m2}


def init_memory_pool_and_cache(server_args: ServerArgs, model_config: ModelConfig):
    assert model_config.attention_arch == AttentionArch.MLA
    kv_dtype = _KV_DTYPES[server_args.kv_cache_dtype]
    common = dict(size=server_args.max_total_tokens,
                  page_size=server_args.page_size,
                  dtype=kv_dtype,
                  kv_lora_rank=model_config.kv_lora_rank,
                  qk_rope_head_dim=model_config.qk_rope_head_dim,
                  layer_num=model_config.num_hidden_layers,
                  device=server_args.device)
    if model_config.is_nsa:
        pool = NSATokenToKVPool(index_head_dim=model_config.index_head_dim, **common)
    else:
        pool = MLATokenToKVPool(**common)
    tree_cache = None
    if server_args.enable_hierarchical_cache:
        tree_cache = HiRadixCache(pool, server_args.page_size,
                                  server_args.hicache_ratio,
                                  server_args.hicache_mem_layout,
                                  hicache_device=server_args.hicache_device)
    return pool, tree_cache


class Scheduler:
    def __init__(self, server_args: ServerArgs = None):
        self.server_args = server_args or ServerArgs()
        self.model_config = ModelConfig()
        self.token_to_kv_pool, self.tree_cache = init_memory_pool_and_cache(
            self.server_args, self.model_config)
