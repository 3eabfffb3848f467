import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from brisk_kv.runtime import make_kv_stack

hf = {
    "architectures": ["MistralForCausalLM"], "model_type": "mistral",
    "hidden_size": 12288, "intermediate_size": 28672, "num_attention_heads": 96,
    "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 88,
    "max_position_embeddings": 131072, "rope_theta": 1000000.0, "torch_dtype": "bfloat16",
}
opts = SimpleNamespace(tp_size=8, kv_quant_group=64, mem_fraction_static=0.88,
                       free_gpu_bytes=52 * (1 << 30), host_tokens=2_000_000)
dev, host = make_kv_stack(hf, opts, device="meta", host_device="meta")
assert len(dev.k_q) == len(host.k_qparams) == 88
measured = {}
for a in ("k_q", "v_q", "k_qparams", "v_qparams"):
    d, o = getattr(dev, a)[0], getattr(host, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r04", dev, host, make_kv_stack, measured)
