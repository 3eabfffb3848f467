import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r07")
from hazelserve.scheduler import init_hybrid_cache

hf = {
    "architectures": ["Qwen3NextForCausalLM"],
    "hidden_size": 2048,
    "num_attention_heads": 16,
    "num_key_value_heads": 2,
    "head_dim": 256,
    "num_hidden_layers": 48,
    "full_attention_interval": 4,
    "torch_dtype": "bfloat16",
}
args = {"tp_size": 2, "max_total_tokens": 500000, "device": "meta",
        "host_device": "meta", "host_mem_gb": 48, "page_size": 64}
dev, host = init_hybrid_cache(hf, args)
g = dev.k_pool.shape[1]
h = host.k_host[0].shape[0]
measured = {
    "k_pool": (per_token(host.k_host, h), per_token(dev.k_pool, g)),
    "v_pool": (per_token(host.v_host, h), per_token(dev.v_pool, g)),
}
verify("r07", dev, host, init_hybrid_cache, measured)
