import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from tamarackserve.configs import ModelConfig, ServeArgs
from tamarackserve.worker import build_memory_pools

hf = {
    "architectures": ["DeepseekV2ForCausalLM"],
    "hidden_size": 2048,
    "num_attention_heads": 16,
    "num_hidden_layers": 27,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
}
args = ServeArgs(kv_cache_dtype="fp8_e4m3", max_total_tokens=300000, page_size=64,
                 device="meta", hier_host_device="meta")
dev, host = build_memory_pools(ModelConfig(hf), args)
g = dev.kv_buffer[0].shape[0]
h = host.kv_store.shape[1]
measured = {
    "kv_buffer": (per_token(host.kv_store, h), per_token(dev.kv_buffer, g)),
}
verify("r02", dev, host, build_memory_pools, measured)
