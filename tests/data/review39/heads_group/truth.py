import sys, torch
from types import SimpleNamespace
sys.path.insert(0, sys.argv[1])
torch.set_default_device("meta")
from build import build_disagg_pools
for hidden, heads, kv in ((4096, 32, 8), (4096, 32, 32), (8192, 64, 8), (3072, 24, 8), (2048, 16, 16), (5120, 40, 8)):
    cfg = SimpleNamespace(architectures=["X"], hidden_size=hidden, num_attention_heads=heads, num_kv_heads=kv, num_layers=2)
    p, d, _ = build_disagg_pools(cfg, 16, 2, torch.bfloat16)
    print(hidden, heads, kv, "prefill", p.k_buffer[0][0].numel() * 2, "decode", d.k_buffer[0][0].numel() * 2)
