from common import setup, bpt, compare

setup("r07")
from disagg.connector import build_kv_connector

conn = build_kv_connector(device="meta")
dev, pre = conn.decode_pool, conn.prefill_pool
compare("r07", {
    "kv": (
        bpt([(pre.kv, pre.num_tokens, pre.num_layers)]),
        bpt([(dev.kv, dev.num_tokens, dev.num_layers)]),
    ),
})
