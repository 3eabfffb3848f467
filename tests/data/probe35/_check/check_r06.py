from common import setup, bpt, compare
setup("r06")
from trtllm_py.pyexecutor._util import create_kv_cache_manager
dev, host = create_kv_cache_manager(device="meta")
compare("r06", {
    "kv_pool": (bpt([(host.secondary_pool, host.num_tokens, host.num_local_layers)]),
                bpt([(dev.primary_pool, dev.max_tokens, dev.num_local_layers)])),
})
