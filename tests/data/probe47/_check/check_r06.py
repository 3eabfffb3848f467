import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from plover.config import CacheConfig, ModelConfig, ParallelConfig
from plover.worker import init_cache_engines

hf = {
    "architectures": ["MixtralForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "num_hidden_layers": 32, "num_local_experts": 8,
    "num_experts_per_tok": 2, "torch_dtype": "bfloat16",
}
mc = ModelConfig(hf)
cc = CacheConfig(block_size=16, cache_dtype="auto", num_gpu_blocks=24_000, swap_space_bytes=32 << 30)
pc = ParallelConfig(tensor_parallel_size=2, pipeline_parallel_size=2)
dev, swap = init_cache_engines(mc, cc, pc, device="meta", swap_device="meta")
assert len(dev.kv_caches) == len(swap.kv_caches) == 16
d, o = dev.kv_caches[0], swap.kv_caches[0]
measured = {"kv_caches": (per_token(o, o.shape[1] * o.shape[2]), per_token(d, d.shape[1] * d.shape[2]))}
verify("r06", dev, swap, init_cache_engines, measured)
