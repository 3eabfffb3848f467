import sys, torch
from types import SimpleNamespace
sys.path.insert(0, sys.argv[1])
torch.set_default_device("meta")
from build import build_disagg_pools
# real model shapes: hidden divisible by heads
for hidden, heads in ((4096, 32), (3072, 24), (5120, 40), (2048, 16)):
    cfg = SimpleNamespace(architectures=["X"], max_position_embeddings=4096, hidden_size=hidden, num_attention_heads=heads)
    p, d, *_ = build_disagg_pools(cfg, 16, 2, torch.bfloat16)
    a, b = p.k_buffer[0], d.k_buffer[0]
    print(hidden, heads, "prefill", a[0].numel() * a.element_size(), "decode", b[0].numel() * b.element_size())
cfg = SimpleNamespace(architectures=["X"], max_position_embeddings=4096, hidden_size=3072, num_attention_heads=160)
p, d, *_ = build_disagg_pools(cfg, 16, 2, torch.bfloat16); a, b = p.k_buffer[0], d.k_buffer[0]
print("3072/160 (not a real model)", a[0].numel() * a.element_size(), b[0].numel() * b.element_size())
