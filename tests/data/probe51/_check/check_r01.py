import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from tidepool.launch import start_cache

hf = {
    "architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
    "torch_dtype": "bfloat16",
    "text_config": {
        "model_type": "gemma3_text", "hidden_size": 3840, "intermediate_size": 15360,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 256,
        "num_hidden_layers": 48, "sliding_window": 1024, "sliding_window_pattern": 6,
        "rope_theta": 1000000.0, "query_pre_attn_scalar": 256,
    },
    "vision_config": {"hidden_size": 1152, "num_hidden_layers": 27},
}
args = SimpleNamespace(tp_size=2, max_total_tokens=180_000, max_running_requests=48,
                       kv_cache_dtype="auto", hicache_ratio=2.0)
dev, host = start_cache(hf, args, device="meta", host_device="meta")
assert dev.full_kv.shape[0] == 8 and dev.swa_kv.shape[0] == 40
measured = {}
for a in ("full_kv", "swa_kv"):
    d, o = getattr(dev, a), getattr(host, a)
    measured[a] = (per_token(o, o.shape[0] * o.shape[1]), per_token(d, d.shape[0] * d.shape[2]))
verify("r01", dev, host, start_cache, measured)
