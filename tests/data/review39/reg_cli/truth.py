import sys, torch
sys.path.insert(0, sys.argv[1])
torch.set_default_device("meta")
from build import build_disagg_pools
p, d = build_disagg_pools(16, 2, 8, 128, torch.bfloat16)
print("prefill", p.k_buffer[0][0].numel() * 2, "decode", d.k_buffer[0][0].numel() * 2)
