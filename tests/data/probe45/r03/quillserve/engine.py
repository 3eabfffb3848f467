from .disagg.decode_pool import DecodeKVStore
from .kv_cache import PrefillKVCache
from .model_config import HFModelConfig


def build_pd_pools(hf_config, tp_size, prefill_tokens, decode_tokens, device="cuda"):
    """Build the prefill-side and decode-side pools for a PD pair (used by
    the single-node launcher and the tests)."""
    mc = HFModelConfig(hf_config, tp_size=tp_size)
    prefill = PrefillKVCache(
        num_tokens=prefill_tokens,
        num_layers=mc.num_hidden_layers,
        num_kv_heads=mc.kv_heads_per_rank(),
        head_dim=mc.head_dim,
        dtype=mc.dtype,
        device=device,
    )
    decode = DecodeKVStore(mc, decode_tokens, device=device)
    return prefill, decode
