import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p08")
from tllm_exec.bindings import ExecutorConfig
from tllm_exec.pyexecutor.py_executor_creator import create_py_executor

ex = create_py_executor(ExecutorConfig(device="meta", host_device="meta"))
kv, host = ex.kv_cache_manager, ex.secondary_pool
L = kv.num_local_layers
assert L == host.num_local_layers == 40
dt = kv.blocks_in_primary_pool * kv.tokens_per_block
ht = host.num_blocks * host.tokens_per_block
m = {}
for name in ("kv_cache_pool", "kv_scale_pool"):
    m[name] = (_util.per_token_per_layer(getattr(host, name), ht, L),
               _util.per_token_per_layer(getattr(kv, name), dt, L))
_util.verify("p08", m)
print("OK")
