"""Engine bootstrap for a prefill/decode pair."""
from .caches import DecodeIntakeCache, PrefillShardCache
from .layout import rank_layout


def pair_prefill_decode(hf: dict, prefill, decode, device="cuda", decode_device="cuda"):
    if prefill.kv_cache_dtype != decode.kv_cache_dtype:
        raise ValueError("prefill and decode must use one kv cache dtype")
    pre = PrefillShardCache(
        rank_layout(hf, prefill.tp, prefill.kv_cache_dtype),
        prefill.max_tokens, prefill.block, device=device,
    )
    dec = DecodeIntakeCache(
        rank_layout(hf, decode.tp, decode.kv_cache_dtype),
        decode.max_tokens, decode.block, device=decode_device,
    )
    return pre, dec
