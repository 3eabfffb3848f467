from pools import DecodeKVPool, PrefillKVPool


def build_disagg_pools(cfg, size, dtype):
    prefill = PrefillKVPool(size, cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, dtype)
    kw = dict(size=size, layer_num=cfg.num_layers, head_num=cfg.num_kv_heads, head_dim=cfg.head_dim, dtype=dtype)
    decode = DecodeKVPool(**kw)
    draft = None
    if cfg.draft_num_layers:
        kw.update(
            layer_num=cfg.draft_num_layers,
            head_num=cfg.draft_num_kv_heads,
            head_dim=cfg.draft_head_dim,
        )
        draft = PrefillKVPool(**kw)
    return prefill, decode, draft
