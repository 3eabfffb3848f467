from types import SimpleNamespace

import torch

from .hicache import MHATokenToKVPoolHost
from .memory_pool import MHATokenToKVPool

QWEN25_7B = SimpleNamespace(num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4,
                            hidden_size=3584, torch_dtype=torch.bfloat16)


def default_server_args(**overrides):
    args = SimpleNamespace(tp_size=2, page_size=32, max_total_tokens=65536, kv_cache_dtype="auto",
                           enable_hierarchical_cache=True, hicache_ratio=2.0)
    for k, v in overrides.items():
        setattr(args, k, v)
    return args


def _kv_dtype(server_args, hf_config):
    if server_args.kv_cache_dtype == "auto":
        return hf_config.torch_dtype
    if server_args.kv_cache_dtype == "fp8_e5m2":
        return torch.float8_e5m2
    return torch.float8_e4m3fn


def build_kv_pools(server_args=None, hf_config=QWEN25_7B, device="cuda"):
    server_args = server_args or default_server_args()
    head_dim = hf_config.hidden_size // hf_config.num_attention_heads
    head_num = max(1, hf_config.num_key_value_heads // server_args.tp_size)
    device_pool = MHATokenToKVPool(
        size=server_args.max_total_tokens,
        page_size=server_args.page_size,
        dtype=_kv_dtype(server_args, hf_config),
        head_num=head_num,
        head_dim=head_dim,
        layer_num=hf_config.num_hidden_layers,
        device=device,
    )
    host_pool = None
    if server_args.enable_hierarchical_cache:
        host_pool = MHATokenToKVPoolHost(device_pool, server_args.hicache_ratio, server_args.page_size,
                                         device="meta" if device == "meta" else "cpu")
    return device_pool, host_pool
