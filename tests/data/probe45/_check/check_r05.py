import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from wrenlm.config import CacheConfig, ModelConfig, ParallelConfig
from wrenlm.worker.worker import init_cache_engines

hf = {
    "architectures": ["Qwen2ForCausalLM"],
    "hidden_size": 3584,
    "num_attention_heads": 28,
    "num_key_value_heads": 4,
    "num_hidden_layers": 28,
}
mc = ModelConfig(hf, dtype="bfloat16")
cc = CacheConfig(block_size=16, swap_space_gib=8)
dev, swap = init_cache_engines(mc, cc, ParallelConfig(1), num_gpu_blocks=20000,
                               overrides={"cache_dtype": "fp8_e4m3"},
                               device="meta", swap_device="meta")
g = dev.gpu_cache[0].shape[1] * dev.gpu_cache[0].shape[2]
h = swap.cpu_cache[0].shape[1] * swap.cpu_cache[0].shape[2]
measured = {
    "gpu_cache": (per_token(swap.cpu_cache, h), per_token(dev.gpu_cache, g)),
}
verify("r05", dev, swap, init_cache_engines, measured)
