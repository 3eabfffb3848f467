import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from fennelkv.config import EngineConfig, KVQuantConfig
from fennelkv.manager import build_hierarchical_cache

hf = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 8192,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "num_hidden_layers": 80,
    "torch_dtype": "bfloat16",
}
cfg = EngineConfig.from_hf(hf, tp_size=8, gpu_tokens=300000, host_tokens=1200000,
                           device="meta", host_device="meta")
dev, host = build_hierarchical_cache(cfg, KVQuantConfig(group_size=64))
g = dev.k_data[0].shape[0]
h = host.k_data.shape[1]
measured = {
    "k_data": (per_token(host.k_data, h), per_token(dev.k_data, g)),
    "v_data": (per_token(host.v_data, h), per_token(dev.v_data, g)),
    "k_scale": (per_token(host.k_scale, h), per_token(dev.k_scale, g)),
    "v_scale": (per_token(host.v_scale, h), per_token(dev.v_scale, g)),
}
verify("r08", dev, host, build_hierarchical_cache, measured)
