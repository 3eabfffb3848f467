import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from sorrelkv.runtime import setup_cache_hierarchy

model = {
    "architectures": ["MistralForCausalLM"],
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
    "torch_dtype": "bfloat16",
}
opts = {
    "tp_size": 1,
    "page_size": 16,
    "kv_cache_dtype": "fp8_e4m3",
    "device": "meta",
    "host_device": "meta",
    "num_gpu_pages": 8192,
    "host_bytes": 64 * 1024**3,
}
dev, host = setup_cache_hierarchy(model, opts)
g = dev.k_cache[0].shape[0] * dev.k_cache[0].shape[1]
h = host.k_cache.shape[1] * host.k_cache.shape[2]
measured = {
    "k_cache": (per_token(host.k_cache, h), per_token(dev.k_cache, g)),
    "v_cache": (per_token(host.v_cache, h), per_token(dev.v_cache, g)),
    "k_scales": (per_token(host.k_scales, h), per_token(dev.k_scales, g)),
    "v_scales": (per_token(host.v_scales, h), per_token(dev.v_scales, g)),
}
verify("r04", dev, host, setup_cache_hierarchy, measured)
