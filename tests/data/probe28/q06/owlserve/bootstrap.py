import torch

from .kv import EngineKV
from .wire import WireBuffer


def setup_kv(layer_count=2, kv_head_count=8, dim_per_head=128, tp_ranks=4,
             max_tokens=16384, wire_tokens=4096, elem_dtype=torch.bfloat16,
             device="cuda", wire_device="cpu"):
    engine_kv = EngineKV(layer_count, kv_head_count, dim_per_head, tp_ranks, max_tokens,
                         elem_dtype=elem_dtype, device=device)
    wire = WireBuffer(layer_count, kv_head_count, dim_per_head, tp_ranks, wire_tokens,
                      elem_dtype=elem_dtype, device=wire_device)
    return engine_kv, wire
