from common import setup, bpt, compare
setup("r05")
from tgi_server.server import build_caches
dev, draft = build_caches(device="meta")
assert len(dev.layers) == dev.num_layers and len(draft.layers) == draft.num_layers
compare("r05", {
    "key_cache": (bpt([(c.key, draft.num_slots, 1) for c in draft.layers]),
                  bpt([(c.key, dev.num_slots, 1) for c in dev.layers])),
    "value_cache": (bpt([(c.value, draft.num_slots, 1) for c in draft.layers]),
                    bpt([(c.value, dev.num_slots, 1) for c in dev.layers])),
})
