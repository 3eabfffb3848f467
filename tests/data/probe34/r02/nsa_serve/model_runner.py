"""Memory-pool setup for the NSA model runner."""
import torch

from .mem_cache.memory_pool import NSATokenToKVPool
from .mem_cache.memory_pool_host import NSATokenToKVPoolHost


def init_memory_pool(device="cuda", host_device=None, max_total_num_tokens=32768,
                     page_size=64, num_hidden_layers=61, kv_lora_rank=512,
                     qk_rope_head_dim=64, index_head_dim=128,
                     kv_cache_dtype=torch.bfloat16, hicache_ratio=2.0):
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    token_to_kv_pool = NSATokenToKVPool(
        size=max_total_num_tokens,
        page_size=page_size,
        dtype=kv_cache_dtype,
        kv_lora_rank=kv_lora_rank,
        qk_rope_head_dim=qk_rope_head_dim,
        layer_num=num_hidden_layers,
        device=device,
        index_head_dim=index_head_dim,
    )
    host_pool = NSATokenToKVPoolHost(
        token_to_kv_pool,
        host_to_device_ratio=hicache_ratio,
        page_size=page_size,
        pin_memory=(host_device == "cpu"),
        device=host_device,
    )
    return token_to_kv_pool, host_pool
