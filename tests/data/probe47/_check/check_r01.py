import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from lanternkv.cache_setup import build_hierarchical_cache
from lanternkv.config import RuntimeConfig

hf = {
    "architectures": ["LlamaForCausalLM"], "hidden_size": 8192, "num_attention_heads": 64,
    "num_key_value_heads": 8, "num_hidden_layers": 80, "intermediate_size": 28672,
    "rope_theta": 500000.0, "torch_dtype": "bfloat16",
}
rt = RuntimeConfig(tp_size=8, max_total_tokens=600_000, page_size=64, kv_cache_dtype="fp8_e4m3",
                   hicache_ratio=2.5, device="meta", host_device="meta")
dev, host = build_hierarchical_cache(hf, rt)
assert dev.kv_data.shape[0] == host.kv_data.shape[0] == 80
d, o = dev.kv_data[0], host.kv_data[0]
measured = {"kv_data": (per_token(o, o.shape[1]), per_token(d, d.shape[1]))}
verify("r01", dev, host, build_hierarchical_cache, measured)
