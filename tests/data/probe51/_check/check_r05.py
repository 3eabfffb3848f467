import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from ravelin.worker import init_kv_tiers

model_cfg = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama",
    "hidden_size": 8192, "intermediate_size": 28672, "num_attention_heads": 64,
    "num_key_value_heads": 8, "num_hidden_layers": 80, "rope_theta": 500000.0,
    "max_position_embeddings": 131072, "torch_dtype": "bfloat16",
}
cache_cfg = {"cache_dtype": "fp8", "block_size": 16, "gpu_kv_bytes": 30 * (1 << 30),
             "cpu_offload_gb": 200, "offload_block_factor": 16}
dev, host = init_kv_tiers(model_cfg, cache_cfg, {"tensor_parallel_size": 4},
                          device="meta", cpu_device="meta")
assert len(dev.kv_caches) == len(host.blocks) == 80
d, o = dev.kv_caches[0], host.blocks[0]
measured = {"kv_caches": (per_token(o, o.shape[0] * host.tokens_per_block),
                          per_token(d, d.shape[1] * d.shape[2]))}
verify("r05", dev, host, init_kv_tiers, measured)
