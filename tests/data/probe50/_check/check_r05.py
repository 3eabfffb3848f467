import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r05")
from plover.bootstrap import load_caches
from plover.config import CacheArgs

hf = {
    "architectures": ["Gemma2ForCausalLM"], "hidden_size": 3584, "num_attention_heads": 16,
    "num_key_value_heads": 8, "head_dim": 256, "num_hidden_layers": 42,
    "sliding_window": 4096, "intermediate_size": 14336, "torch_dtype": "bfloat16",
}
args = CacheArgs(max_num_tokens=250_000, offload_gib=24.0)
dev, host = load_caches(hf, args, device="meta", host_device="meta")
assert len(dev.key_cache) == host.k_host.shape[0] == 42
measured = {}
for a, h in (("key_cache", "k_host"), ("value_cache", "v_host")):
    bufs, o = getattr(dev, a), getattr(host, h)
    per_layer = {per_token(b, b.shape[0]) for b in bufs}
    assert len(per_layer) == 1, per_layer
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_layer.pop())
verify("r05", dev, host, load_caches, measured)
