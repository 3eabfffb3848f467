import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from heronkv.engine import create_kv_hierarchy

n = 36
hf = {
    "architectures": ["GptOssForCausalLM"], "hidden_size": 2880, "num_attention_heads": 64,
    "num_key_value_heads": 8, "head_dim": 64, "num_hidden_layers": n, "sliding_window": 128,
    "layer_types": ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(n)],
    "num_local_experts": 128, "torch_dtype": "bfloat16",
}
dev, host = create_kv_hierarchy(hf, tp_size=4, capacity_tokens=1_600_000, swa_ratio=0.25,
                                host_factor=3.0, page_size=16, device="meta", host_device="meta")
assert sorted(dev.full_kv) == sorted(host.full_kv) and len(dev.full_kv) == 18
assert sorted(dev.swa_kv) == sorted(host.swa_kv) and len(dev.swa_kv) == 18
measured = {}
for a in ("full_kv", "swa_kv"):
    d, o = getattr(dev, a)[1 if a == "full_kv" else 0], getattr(host, a)[1 if a == "full_kv" else 0]
    measured[a] = (per_token(o, o.shape[1]), per_token(d, d.shape[1]))
verify("r08", dev, host, create_kv_hierarchy, measured)
