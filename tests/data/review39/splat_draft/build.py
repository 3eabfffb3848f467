from pools import DraftKVPool, MHAKVPool


def init_spec_pools(cfg, size, dtype, device):
    target = MHAKVPool(size, cfg.num_layers, cfg.num_kv_heads, cfg.head_dim, dtype, device)
    draft_kwargs = dict(size=size, dtype=dtype, device=device)
    draft_kwargs.update(
        layer_num=cfg.draft_num_layers,
        head_num=cfg.draft_num_kv_heads,
        head_dim=cfg.draft_head_dim,
    )
    draft = DraftKVPool(**draft_kwargs)
    return target, draft
