import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from larchkv.config import ServerConfig
from larchkv.scheduler import init_kv_pools

hf = {
    "architectures": ["LlamaForCausalLM"],
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "num_hidden_layers": 32,
    "torch_dtype": "bfloat16",
}
server = ServerConfig(tp_size=2, max_total_tokens=200000, page_size=16,
                      device="meta", host_device="meta")
dev, host = init_kv_pools(server, hf)
g = dev.k_buffer[0].shape[0]
h = host.kv_data.shape[2]
measured = {
    "k_buffer": (per_token(host.kv_data[0], h), per_token(dev.k_buffer, g)),
    "v_buffer": (per_token(host.kv_data[1], h), per_token(dev.v_buffer, g)),
}
verify("r01", dev, host, init_kv_pools, measured)
