from pools import DecodeKVPool, PrefillKVPool


def build_disagg_pools(cfg, size, layer_num, dtype):
    arch = cfg.architectures
    context_len = cfg.max_position_embeddings
    prefill = PrefillKVPool(size, layer_num, cfg, dtype)
    decode = DecodeKVPool(size, layer_num, cfg.hidden_size, dtype)
    return prefill, decode, context_len, arch
