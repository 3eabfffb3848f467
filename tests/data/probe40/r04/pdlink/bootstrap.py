"""Bring up both halves of a prefill/decode pair from one option set."""
from .decode_pool import DecodePagedKV
from .options import KVOptions
from .prefill_sender import PrefillKVSender


def build_pd_pools(device="cuda", **kv_kwargs):
    opts = KVOptions(**kv_kwargs)
    decode = DecodePagedKV(opts, device=device)
    prefill = PrefillKVSender(opts, device=device)
    return decode, prefill
