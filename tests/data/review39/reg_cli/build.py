import pools  # noqa: F401  (registers the pool classes)
from registry import get_pool_cls


def build_disagg_pools(size, layer_num, head_num, head_dim, dtype):
    prefill_cls = get_pool_cls("prefill")
    decode_cls = get_pool_cls("decode")
    prefill = prefill_cls(size, layer_num, head_num, head_dim, dtype)
    decode = decode_cls(size, layer_num, head_num, head_dim, dtype)
    return prefill, decode
