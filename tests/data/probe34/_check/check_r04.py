from common import setup, bpt, compare
setup("r04")
from sgl_hicache.runner import init_memory_pool

dev, host = init_memory_pool(device="meta")
assert host.kv_buffer.is_meta
compare("r04", {
    "kv_buffer": (bpt([(host.kv_buffer, host.size, host.layer_num)]),
                  bpt([(dev.kv_buffer, dev.size, dev.layer_num)])),
})
