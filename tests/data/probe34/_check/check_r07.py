from common import setup, bpt, compare
setup("r07")
from eagle_mla.spec_worker import build_caches

target, draft = build_caches(device="meta")
tokens = target.num_pages * target.page_size
compare("r07", {
    "kv_buffer": (bpt([(draft.kv_buffer, draft.num_pages * draft.page_size, len(draft.layer_ids))]),
                  bpt([(target.kv_buffer, tokens, target.end_layer - target.start_layer)])),
})
