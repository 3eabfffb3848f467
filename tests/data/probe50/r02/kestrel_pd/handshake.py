from kestrel_pd.decode_pool import MLADecodeRecvPool
from kestrel_pd.prefill_pool import MLAPrefillPool


def open_kv_channel(settings, prefill_device="cuda", decode_device="cuda"):
    """Build both ends of a P/D KV channel for one layer-sharded model replica."""
    prefill = MLAPrefillPool(settings, device=prefill_device)
    decode = MLADecodeRecvPool(settings, device=decode_device)
    if len(prefill.nope_cache) != len(decode.nope):
        raise RuntimeError("prefill and decode disagree on the number of layers")
    return prefill, decode


def plan_transfer(prefill, decode, layer, src_slots, dst_slots):
    """Pair up (src_ptr, dst_ptr, nbytes) for every segment of every slot."""
    src_segments = prefill.transfer_descriptor(layer)
    dst_rows = decode.row_bytes()
    plan = []
    for (ptr, row), name in zip(src_segments, dst_rows):
        dst = decode.segments[name][layer]
        for s, d in zip(src_slots, dst_slots):
            plan.append((ptr + s * row, dst.data_ptr() + d * dst_rows[name], row))
    return plan
