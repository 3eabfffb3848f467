"""r06: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r06")
from ember.runtime import build_cache_pair
from ember.settings import KVQuantSettings

cache, store = build_cache_pair(KVQuantSettings(device="meta", offload_device="meta"))
dev_slots = cache.num_blocks * cache.block_tokens
host_slots = store.num_blocks * store.block_tokens
measured = {
    attr: (per_token(getattr(store, attr), host_slots), per_token(getattr(cache, attr), dev_slots))
    for attr in ("k_q", "v_q", "k_scale", "v_scale")
}
verify("r06", cache, store, build_cache_pair, measured)
