"""Model-runner memory setup."""
from .host_pool import create_host_pool
from .model_config import (DEFAULT_MODEL_CFG, DEFAULT_SERVER_ARGS, attn_tp_size, get_num_kv_heads,
                           head_dim, kv_cache_dtype)
from .token_pool import MHATokenToKVPool


def init_memory_pool(device="cuda", host_device=None, model_cfg=None, server_args=None):
    model_cfg = dict(DEFAULT_MODEL_CFG, **(model_cfg or {}))
    server_args = dict(DEFAULT_SERVER_ARGS, **(server_args or {}))
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    device_pool = MHATokenToKVPool(
        size=server_args["max_total_tokens"],
        page_size=server_args["page_size"],
        dtype=kv_cache_dtype(model_cfg, server_args),
        head_num=get_num_kv_heads(model_cfg, attn_tp_size(server_args)),
        head_dim=head_dim(model_cfg),
        layer_num=model_cfg["num_hidden_layers"],
        device=device,
    )
    host_pool = create_host_pool(device_pool, model_cfg, server_args, device=host_device)
    return device_pool, host_pool
