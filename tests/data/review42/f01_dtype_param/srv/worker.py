from .pools import PagedKVCache, PinnedSwapSpace


def init_kv(model_cfg, cache_cfg, dtype, num_pages: int = 1024, swap_tokens: int = 65536):
    heads = model_cfg.num_key_value_heads
    row = 2 * heads * model_cfg.head_dim * dtype.itemsize
    gpu = PagedKVCache(num_pages, cache_cfg.page_size, model_cfg.num_hidden_layers, heads,
                       model_cfg.head_dim, dtype)
    swap = PinnedSwapSpace(gpu, swap_tokens, row)
    return gpu, swap
