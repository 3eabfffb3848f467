import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from puffinrt.engine import create_fp4_caches

cfg = SimpleNamespace(
    architectures=["LlamaForCausalLM"], hidden_size=4096, num_attention_heads=32,
    num_key_value_heads=8, head_dim=128, num_hidden_layers=32, intermediate_size=14336,
    torch_dtype="bfloat16",
)
cache = SimpleNamespace(tp_size=1, gpu_tokens=1_000_000, host_tokens=3_000_000,
                        page_size=64, kv_cache_dtype="mxfp4")
dev, host = create_fp4_caches(cfg, cache, device="meta", host_device="meta")
assert len(dev.k_data) == len(host.k_data) == 32
measured = {}
for a in ("k_data", "k_scale", "v_data", "v_scale"):
    d, o = getattr(dev, a)[0], getattr(host, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r05", dev, host, create_fp4_caches, measured)
