from common import setup, bpt, compare
setup("r05")
from tgi_server.layers.kv_cache import BLOCK_SIZE
from tgi_server.models.flash_causal_lm import init_kv_cache

dev, host = init_kv_cache(device="meta")
assert host.kv_cache[0].is_meta
compare("r05", {
    "kv_cache": (bpt([(t, host.num_blocks * BLOCK_SIZE, 1) for t in host.kv_cache]),
                 bpt([(t, dev.num_blocks * BLOCK_SIZE, 1) for t in dev.kv_cache])),
})
