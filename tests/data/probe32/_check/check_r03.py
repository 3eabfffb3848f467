from common import setup, bpt, compare

setup("r03")
from trt_runtime.runtime import create_kv_cache_managers

dev, host = create_kv_cache_managers(device="meta", host_device="meta")
measured = {
    "pool": (
        bpt([(host.pool, host.num_blocks * host.tokens_per_block, host.num_layers)]),
        bpt([(dev.pool, dev.max_blocks * dev.tokens_per_block, dev.num_layers)]),
    )
}
compare("r03", measured)
