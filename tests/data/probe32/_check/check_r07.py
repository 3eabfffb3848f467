from common import setup, bpt, compare

setup("r07")
from sgl_fork.mem_cache.pool_builder import init_memory_pool

dev, host = init_memory_pool(device="meta", host_device="meta")
assert len(dev.kv_buffer) == dev.n_layers
td = dev.max_tokens + dev.page_size
measured = {
    "kv_buffer": (
        bpt([(host.kv_buffer, host.size, host.n_layers)]),
        bpt([(t, td, 1) for t in dev.kv_buffer]),
    )
}
compare("r07", measured)
