import functools

import torch

from . import pools  # noqa: F401  (populates POOL_REGISTRY)
from .parallel import ParallelState
from .registry import get_pool_cls

QWEN2_72B = dict(
    num_hidden_layers=80,
    num_attention_heads=64,
    num_key_value_heads=8,
    hidden_size=8192,
    torch_dtype=torch.bfloat16,
)


def create_pools(device="cuda", num_rows=200_000, swap_rows=400_000, hf_config=None):
    cfg = dict(QWEN2_72B, **(hf_config or {}))
    parallel = ParallelState(tp_size=8, dp_size=2, enable_dp_attention=True)
    common = dict(
        depth=cfg["num_hidden_layers"],
        total_kv_heads=cfg["num_key_value_heads"],
        head_dim=cfg["hidden_size"] // cfg["num_attention_heads"],
        dtype=cfg["torch_dtype"],
    )
    make_device = functools.partial(get_pool_cls("device"), parallel=parallel, **common)
    make_swap = functools.partial(get_pool_cls("swap"), tp_size=parallel.tp_size, **common)

    device_pool = make_device(num_rows, device=device)
    swap_pool = make_swap(swap_rows, device="meta" if device == "meta" else "cpu")
    return device_pool, swap_pool
