import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from birchinfer.hparams import CacheBudget
from birchinfer.worker import init_kv_stores

b = CacheBudget(gpu_device="meta", host_device="meta")
dev, host = init_kv_stores(budget=b)
assert dev.layer_ids == [3, 7, 11, 15] and list(host.layer_ids) == [3, 7, 11, 15]
measured = {
    "key_store": (per_token(list(host.keys.values()), b.host_tokens), per_token(dev.key_store, b.gpu_tokens)),
    "value_store": (per_token(list(host.values.values()), b.host_tokens), per_token(dev.value_store, b.gpu_tokens)),
}
verify("r04", dev, host, init_kv_stores, measured)
