from types import SimpleNamespace

import torch

from sgl_mla.mem_cache.memory_pool import MLATokenToKVPool
from sgl_mla.mem_cache.memory_pool_host import MLATokenToKVPoolHost

DEEPSEEK_V3 = SimpleNamespace(
    num_hidden_layers=61,
    kv_lora_rank=512,
    qk_nope_head_dim=128,
    qk_rope_head_dim=64,
    v_head_dim=128,
)

SERVER_ARGS = SimpleNamespace(
    page_size=64,
    max_total_num_tokens=409_600,
    kv_cache_dtype="auto",
    hicache_ratio=2.0,
    hicache_size=0,
    hicache_mem_layout="layer_first",
)


def init_memory_pool(device="cuda", model_config=DEEPSEEK_V3, server_args=SERVER_ARGS):
    kv_cache_dtype = torch.bfloat16
    if server_args.kv_cache_dtype == "fp8_e4m3":
        kv_cache_dtype = torch.float8_e4m3fn
    page_size = server_args.page_size
    max_total_num_tokens = server_args.max_total_num_tokens // page_size * page_size

    token_to_kv_pool = MLATokenToKVPool(
        max_total_num_tokens,
        page_size=page_size,
        dtype=kv_cache_dtype,
        kv_lora_rank=model_config.kv_lora_rank,
        qk_rope_head_dim=model_config.qk_rope_head_dim,
        layer_num=model_config.num_hidden_layers,
        device=device,
    )
    on_meta = str(device) == "meta"
    host_pool = MLATokenToKVPoolHost(
        token_to_kv_pool,
        server_args.hicache_ratio,
        server_args.hicache_size,
        page_size,
        layout=server_args.hicache_mem_layout,
        pin_memory=not on_meta and torch.cuda.is_available(),
        device="meta" if on_meta else "cpu",
    )
    return token_to_kv_pool, host_pool
