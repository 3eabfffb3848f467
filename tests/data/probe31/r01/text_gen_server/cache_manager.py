import argparse
from typing import Optional, Tuple

import torch

from text_gen_server.cli import default_server_args
from text_gen_server.layers.kv_cache import KVCache
from text_gen_server.utils.swap import HostSwapSpace

_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def build_cache(
    args: Optional[argparse.Namespace] = None,
    device: str = "cuda",
) -> Tuple[KVCache, HostSwapSpace]:
    """Allocate the shard's paged KV cache and its host swap space."""
    if args is None:
        args = default_server_args()
    dtype = _DTYPES[args.dtype]
    num_heads = args.num_key_value_heads // args.world_size

    cache = KVCache(
        num_blocks=args.num_blocks,
        num_layers=args.num_hidden_layers,
        num_heads=num_heads,
        head_size=args.head_size,
        dtype=dtype,
        device=torch.device(device),
        kv_cache_dtype=args.kv_cache_dtype,
        block_size=args.block_size,
    )
    swap = HostSwapSpace(
        num_layers=args.num_hidden_layers,
        num_heads=num_heads,
        head_size=args.head_size,
        block_size=args.block_size,
        model_dtype=dtype,
        swap_space_mb=args.swap_space_mb,
        pin_memory=args.pin_host_memory,
    )
    return cache, swap
