from common import setup, bpt, compare

setup("r08")
from specdec.worker import spec_decode_pools

dev, draft = spec_decode_pools(device="meta")
compare("r08", {
    "k": (
        bpt([(t, draft.num_entries, 1) for t in draft.key_cache]),
        bpt([(dev.kv[:, 0], dev.num_entries, dev.n_layer)]),
    ),
    "v": (
        bpt([(t, draft.num_entries, 1) for t in draft.value_cache]),
        bpt([(dev.kv[:, 1], dev.num_entries, dev.n_layer)]),
    ),
})
