from common import setup, bpt, compare

setup("r01")
from latentserve.engine import build_hicache

dev, host = build_hicache(device="meta")
compare("r01", {
    "kv_buffer": (
        bpt([(host.kv_buffer, host.size, host.layer_num)]),
        bpt([(t, dev.size + dev.page_size, 1) for t in dev.kv_buffer]),
    ),
})
