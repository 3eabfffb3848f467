from common import setup, bpt, compare
setup("r02")
from sgl_mla.model_runner import init_memory_pool
dev, host = init_memory_pool(device="meta")
compare("r02", {
    "kv_buffer": (bpt([(host.kv_buffer, host.size, host.layer_num)]),
                  bpt([(t, dev.size + dev.page_size, 1) for t in dev.kv_buffer])),
})
