import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from moraine.setup import create_cache_tiers

n = 34
hf = {
    "architectures": ["Gemma3ForCausalLM"], "hidden_size": 2560, "num_attention_heads": 8,
    "num_key_value_heads": 4, "head_dim": 256, "num_hidden_layers": n,
    "sliding_window": 1024, "sliding_window_pattern": 6, "torch_dtype": "bfloat16",
    "layer_types": ["full_attention" if (i + 1) % 6 == 0 else "sliding_attention" for i in range(n)],
}
dev, off = create_cache_tiers(hf, tp_size=2, gpu_blocks=40000, block_tokens=16, max_running=256,
                              host_tokens=2_000_000, device="meta", host_device="meta")
assert len(dev.global_kv) == len(off.global_kv) == 5
assert len(dev.local_kv) == len(off.local_kv) == 29
measured = {}
for a in ("global_kv", "local_kv"):
    d, o = getattr(dev, a)[0], getattr(off, a)[0]
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0] * d.shape[2]))
verify("r04", dev, off, create_cache_tiers, measured)
