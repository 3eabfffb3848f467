import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from halcyon.runtime import allocate_kv_hierarchy

hf = {
    "architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584, "num_attention_heads": 28,
    "num_key_value_heads": 4, "num_hidden_layers": 28, "torch_dtype": "bfloat16",
}
dev, host = allocate_kv_hierarchy(hf, "fp8_e4m3", tp_size=1, gpu_tokens=1_200_000,
                                  host_tokens=3_000_000, device="meta", host_device="meta")
measured = {}
for a in ("k_data", "v_data", "k_scale", "v_scale"):
    d, o = getattr(dev, a), getattr(host, a)
    assert len(d) == len(o) == 28
    measured[a] = (per_token(o[0], o[0].shape[0]), per_token(d[0], d[0].shape[0]))
verify("r05", dev, host, allocate_kv_hierarchy, measured)
