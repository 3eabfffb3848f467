import itertools
import math


def pages(n, page_size):
    return math.ceil(n / page_size)


def tokens_per_layer(cfg, cache_args):
    """Sliding layers only ever need the window (plus one page of slack)."""
    full = pages(cache_args.max_num_tokens, cache_args.page_size) * cache_args.page_size
    win = pages(min(cfg.sliding_window, cache_args.max_num_tokens), cache_args.page_size) + 1
    win *= cache_args.page_size
    return [win if sliding else full for sliding in cfg.layer_is_sliding]


def group_layers(cfg):
    """Return (sliding_ids, full_ids)."""
    flags = cfg.layer_is_sliding
    sliding = [i for i, f in enumerate(flags) if f]
    full = [i for i, f in enumerate(flags) if not f]
    return sliding, full


def interleave(a, b):
    return [x for x in itertools.chain.from_iterable(itertools.zip_longest(a, b)) if x is not None]
