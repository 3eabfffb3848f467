"""Allocate the KV slots and their host shadow for one worker."""
from .options import EngineOptions
from .shadow import HostKVShadow
from .slots import QuantKVSlots


def build_kv(opts=None, device="cuda", host_device="cpu"):
    opts = opts or EngineOptions()
    slots = QuantKVSlots(
        opts.num_slots,
        opts.n_layers,
        opts.kv_heads_total,
        opts.head_dim,
        tp_size=opts.tp_size,
        dtype=opts.act_dtype,
        quantized=opts.fp8_kv,
        device=device,
    )
    shadow = HostKVShadow.mirror_of(slots, opts.host_ratio, device=host_device)
    return slots, shadow
