"""Staging buffer the prefill replica fills and ships to the decode replica
(via a Ray object ref / NCCL send).  Per-layer so layers can be sent as soon
as they are computed."""
from typing import List

import torch

from .config import EngineArgs, resolve_kv_dtype


class KVTransferBuffer:
    def __init__(self, args: EngineArgs, device=None):
        self.capacity = args.transfer_tokens
        self.num_layers = args.num_layers
        self.heads = args.local_kv_heads
        self.head_dim = args.qk_head_dim
        alloc = {"dtype": resolve_kv_dtype(args.kv_dtype),
                 "device": device if device is not None else args.transfer_device}
        self.k_bufs: List[torch.Tensor] = self._make_layer_buffers(alloc)
        self.v_bufs: List[torch.Tensor] = self._make_layer_buffers(alloc)

    def _make_layer_buffers(self, alloc) -> List[torch.Tensor]:
        shape = (self.capacity, self.heads, self.head_dim)
        return [torch.empty(shape, **alloc) for _ in range(self.num_layers)]

    def pack_layer(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> int:
        n = k.shape[0]
        self.k_bufs[layer][:n].copy_(k, non_blocking=True)
        self.v_bufs[layer][:n, :, : v.shape[-1]].copy_(v, non_blocking=True)
        return n
