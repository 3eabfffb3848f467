import os, sys, copy
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _util

_util.tree("p06")
from aphrodite_lite.engine.llm_engine import DEFAULT_ENGINE_ARGS, LLMEngine

args = copy.deepcopy(DEFAULT_ENGINE_ARGS)
args["device"] = "meta"
e = LLMEngine.from_engine_args(args, staging_device="meta")
ce, st = e.cache_engine, e.kv_connector.staging
assert ce.num_layers == st.num_layers == 32
dt = ce.num_gpu_blocks * ce.block_size
m = {}
for name in ("kv_data", "kv_scales"):
    m[name] = (_util.per_token_per_layer(getattr(st, name), st.chunk_tokens, st.num_layers),
               _util.per_token_per_layer(getattr(ce, name), dt, ce.num_layers))
_util.verify("p06", m)
print("OK")
