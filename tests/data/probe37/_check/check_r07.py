from common import setup, bpt, compare

setup("r07")
from disagg.launch import build_cache_pair

store, recv = build_cache_pair(device="meta")
assert len(store.kv) == store.n_layers and len(recv.kv) == recv.layer_count
measured = {"kv": (bpt([(recv.kv, recv.slots, recv.layer_count)]),
                   bpt([(store.kv, store.capacity, store.n_layers)]))}
compare("r07", measured)
