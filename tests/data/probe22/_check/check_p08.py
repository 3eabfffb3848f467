import _util
_util.tree_path("p08")
from lmc_lite.integration.vllm_adapter import init_worker_caches

model_config = {"_name_or_path": "meta-llama/Meta-Llama-3-8B-Instruct", "hidden_size": 4096,
                "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 32,
                "torch_dtype": "bfloat16"}
parallel_config = {"tensor_parallel_size": 1, "rank": 0}
cache_config = {"block_size": 16, "num_gpu_blocks": 4096, "cache_dtype": "fp8"}
pool, store = init_worker_caches(model_config, parallel_config, cache_config,
                                 device="meta", host_device="meta")
L = model_config["num_hidden_layers"]
assert store.num_chunks > 0 and store.num_layers == L
d = {"kv_chunks": _util.bpt(pool.kv_caches, pool.num_blocks * pool.block_size, L)}
m = {"kv_chunks": _util.bpt(store.kv_chunks, store.num_chunks * store.chunk_size, L)}
_util.verify("p08", d, m)
