import _util
_util.tree_path("p05")
from aphrodite_lite.task_handler.worker import create_worker

w = create_worker({"model": "meta-llama/Llama-2-13b-hf", "tensor_parallel_size": 2,
                   "pipeline_parallel_size": 2, "kv_cache_dtype": "fp8", "swap_space": 0.25},
                  device="meta", swap_device="meta")
eng = w.initialize_cache(num_gpu_blocks=1024)
sw = eng.swap
assert sw.num_blocks > 0 and eng.num_layers == 8
d = {"kv_cache": _util.bpt(eng.gpu_cache, eng.num_gpu_blocks * eng.block_size, eng.num_layers)}
m = {"kv_cache": _util.bpt(sw.cpu_cache, sw.num_blocks * sw.block_size, sw.num_layers)}
_util.verify("p05", d, m)
