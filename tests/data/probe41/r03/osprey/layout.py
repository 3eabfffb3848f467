import torch

from .config import OspreyConfig


def kv_row(cfg: OspreyConfig):
    """Return (heads_per_rank, head_dim, elem_bytes, bytes_per_token_all_layers)."""
    heads = cfg.dims.num_kv_heads // cfg.tp_size
    if cfg.cache_dtype.is_floating_point:
        elem = torch.finfo(cfg.cache_dtype).bits // 8
    else:
        elem = torch.iinfo(cfg.cache_dtype).bits // 8
    per_token = cfg.dims.num_layers * 2 * heads * cfg.dims.head_dim * elem
    return heads, cfg.dims.head_dim, elem, per_token
