from common import setup, bpt, compare
setup("r08")
from disagg_decode.decode_instance import init_decode_kv

pool, staging = init_decode_kv(device="meta")
assert staging.k_buffer.is_meta
compare("r08", {
    name: (bpt([(getattr(staging, name), staging.num_slots, staging.num_layers)]),
           bpt([(getattr(pool, name), pool.num_tokens, pool.num_layers)]))
    for name in ("k_buffer", "v_buffer")
})
