from common import setup, bpt, compare
setup("r08")
from kvstore.bootstrap import init_kv_tiers
tiers = init_kv_tiers(device="meta")
dev, off = tiers.gpu_pool, tiers.offload
compare("r08", {
    "kv": (bpt([(off.kv, off.capacity, off.n_layers)]),
           bpt([(dev.kv, dev.max_slots, dev.n_layers)])),
    "kv_scale": (bpt([(off.kv_scale, off.capacity, off.n_layers)]),
                 bpt([(dev.kv_scale, dev.max_slots, dev.n_layers)])),
})
