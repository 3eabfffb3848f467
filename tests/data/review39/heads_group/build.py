from pools import DecodeKVPool, PrefillKVPool


def build_disagg_pools(cfg, size, layer_num, dtype):
    arch = cfg.architectures
    prefill = PrefillKVPool(size, layer_num, cfg, dtype)
    decode = DecodeKVPool(size, layer_num, cfg.hidden_size, cfg.num_attention_heads, cfg.num_kv_heads, dtype)
    return prefill, decode, arch
