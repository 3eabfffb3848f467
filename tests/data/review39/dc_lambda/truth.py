import sys, torch
sys.path.insert(0, sys.argv[1])
torch.set_default_device("meta")
from build import build
for dtype in (torch.bfloat16, torch.float8_e4m3fn):
    dev, host = build(16, 2, 8, dtype)
    for name in ("k_buffer", "v_buffer"):
        d = getattr(dev, name)[0]; h = getattr(host, name)
        print(dtype, name, "device B/tok/layer", d[0].numel() * d.element_size(), "host", h[0, 0].numel() * h.element_size())
