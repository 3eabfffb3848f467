import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p03")
from sgl_kv.managers.scheduler import Scheduler
from sgl_kv.server_args import ServerArgs

s = Scheduler(ServerArgs(device="meta", hicache_device="meta"))
dev = s.token_to_kv_pool
host = s.tree_cache.token_to_kv_pool_host
L = dev.layer_num
assert L == 61 == host.layer_num
dev_tokens = dev.size + dev.page_size
assert dev.kv_buffer[0].shape[0] == dev_tokens
assert dev.index_k_with_scale_buffer[0].shape[0] * dev.page_size == dev_tokens
m = {
    "kv_buffer": (_util.per_token_per_layer(host.kv_buffer, host.size, L),
                  _util.per_token_per_layer(dev.kv_buffer, dev_tokens, L)),
    "index_k_with_scale_buffer": (
        _util.per_token_per_layer(host.index_k_with_scale_buffer, host.size, L),
        _util.per_token_per_layer(dev.index_k_with_scale_buffer, dev_tokens, L)),
}
_util.verify("p03", m)
print("OK")
