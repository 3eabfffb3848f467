import sys, torch
from types import SimpleNamespace
sys.path.insert(0, sys.argv[1])
torch.set_default_device("meta")
from build import build_disagg_pools
cfg = SimpleNamespace(num_layers=32, num_kv_heads=8, head_dim=128, draft_num_layers=1, draft_num_kv_heads=4, draft_head_dim=64)
p, d, dr = build_disagg_pools(cfg, 16, torch.bfloat16)
print("prefill", p.k_buffer[0][0].numel() * 2, "decode", d.k_buffer[0][0].numel() * 2, "draft (other model)", dr.k_buffer[0][0].numel() * 2)
