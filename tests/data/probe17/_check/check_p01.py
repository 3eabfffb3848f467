import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p01"))
from kvstore.config import ServeConfig, CacheSpec
from kvstore.engine import Engine

cfg = ServeConfig(cache=CacheSpec(max_tokens=64))
eng = Engine(cfg, device="meta", host_device="meta")
g, h = eng.gpu_cache, eng.cpu_tier
L = cfg.model.n_layers

def per(bufs, tokens):
    return sum(b.nbytes for b in bufs) / tokens / L

res = {}
for name in ("k_slabs", "v_slabs"):
    d = per(getattr(g, name), g.max_tokens + 1)
    hh = per(getattr(h, name), h.slots)
    print(f"{name}: host {hh} device {d}")
    res[name] = (hh, d)
assert res["k_slabs"] == (2048, 2048)
assert res["v_slabs"] == (2048, 2048)
print("p01 OK")
