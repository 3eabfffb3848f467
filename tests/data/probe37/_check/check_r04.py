from common import setup, bpt, compare

setup("r04")
from exl_cache.factory import build_cache_pair

cache, swap = build_cache_pair(device="meta")
dl = len(cache.key_states)
assert dl == cache.config.num_hidden_layers
measured = {}
for name in ("key_states", "value_states", "key_scales", "value_scales"):
    d, h = getattr(cache, name), getattr(swap, name)
    measured[name] = (bpt([(h, swap.max_tokens, swap.num_layers)]),
                      bpt([(d, cache.token_capacity, dl)]))
compare("r04", measured)
