from common import setup, bpt, compare
setup("r07")
from mlc_serve.engine import init_kv_caches
dev, draft = init_kv_caches(device="meta")
compare("r07", {
    "kv_pages": (bpt([(t, draft.capacity, 1) for t in draft.caches.values()]),
                 bpt([(dev.pages, dev.capacity, dev.num_layers)])),
})
