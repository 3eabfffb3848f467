import sys, torch
from types import SimpleNamespace
sys.path.insert(0, sys.argv[1])
from build import init_spec_pools
# Llama-3-8B target with a Llama-68M-like draft
cfg = SimpleNamespace(num_layers=32, num_kv_heads=8, head_dim=128, draft_num_layers=2, draft_num_kv_heads=12, draft_head_dim=64)
t, d = init_spec_pools(cfg, 16, torch.bfloat16, "meta")
print("target", t.k_buffer[0][0].numel() * 2, "draft", d.k_buffer[0][0].numel() * 2, "(different models: no mirror)")
