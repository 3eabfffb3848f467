import _util
_util.tree_path("p10")
from mla_serve.configs import DeepseekV32Config, ServerArgs
from mla_serve.model_runner import ModelRunner

runner = ModelRunner(DeepseekV32Config(), ServerArgs(device="meta", staging_device="meta",
                                                      staging_buffer_mb=64))
pool, stg = runner.init_memory_pool()
L = pool.layer_num
d = {"kv": _util.bpt(pool.kv_buffer, pool.size, L),
     "index_k": _util.bpt(pool.index_k_with_scale_buffer, pool.size, L)}
m = {"kv": _util.bpt(stg.kv, stg.num_tokens, stg.num_layers),
     "index_k": _util.bpt(stg.index_k, stg.num_tokens, stg.num_layers)}
assert stg.num_tokens > 0
_util.verify("p10", d, m)
