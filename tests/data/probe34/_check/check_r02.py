from common import setup, bpt, compare
setup("r02")
from nsa_serve.model_runner import init_memory_pool

dev, host = init_memory_pool(device="meta")
assert host.kv_buffer.is_meta and dev.kv_buffer[0].is_meta
compare("r02", {
    "kv_buffer": (bpt([(host.kv_buffer, host.size, host.layer_num)]),
                  bpt([(t, dev.size, 1) for t in dev.kv_buffer])),
    "index_k_buffer": (bpt([(host.index_k_buffer, host.num_pages * host.page_size, host.layer_num)]),
                       bpt([(t, dev.num_pages * dev.page_size, 1) for t in dev.index_k_buffer])),
})
