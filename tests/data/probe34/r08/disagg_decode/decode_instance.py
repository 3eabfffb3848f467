"""Decode-instance bootstrap: KV pool plus the inbound transfer buffer."""
import torch

from .kv_pool import DecodeKVPool
from .transfer import KVTransferBuffer


def init_decode_kv(device="cuda", host_device=None, max_total_tokens=32768, transfer_slots=4096,
                   num_layers=28, num_kv_heads=4, head_dim=128, dtype=torch.bfloat16):
    if host_device is None:
        host_device = "meta" if str(device) == "meta" else "cpu"
    pool = DecodeKVPool(max_total_tokens, num_layers, num_kv_heads, head_dim, dtype=dtype, device=device)
    staging = KVTransferBuffer(transfer_slots, num_layers, num_kv_heads, head_dim, dtype=dtype,
                               device=host_device, pin_memory=(host_device == "cpu"))
    return pool, staging
