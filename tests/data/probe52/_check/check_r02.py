import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from quillkv.provision import provision_sparse_cache

cfg = SimpleNamespace(
    architectures=["DeepseekV32ForCausalLM"], hidden_size=7168, num_hidden_layers=61,
    num_attention_heads=128, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128,
    v_head_dim=128, index_head_dim=128, index_n_heads=64, index_topk=2048, torch_dtype="bfloat16",
)
server = SimpleNamespace(max_tokens=600_000, page_size=64, host_ratio=2.0)
dev, host = provision_sparse_cache(cfg, server, device="meta", host_device="meta")
assert len(dev.packed_kv) == len(host.packed_kv) == 61
measured = {}
for a in ("packed_kv", "indexer_k"):
    d, o = getattr(dev, a)[0], getattr(host, a)[0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[0]))
verify("r02", dev, host, provision_sparse_cache, measured)
