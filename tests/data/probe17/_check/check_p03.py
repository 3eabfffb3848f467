import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p03"))
from sparse_kv.runner import make_caches

dev, host = make_caches(max_tokens=64, device="meta", host_device="meta")
L = dev.n_layers
dt = dev.max_tokens + dev.page_size
res = {}
for name in ("latent", "index_k"):
    d = sum(t.nbytes for t in getattr(dev, name)) / dt / L
    h = sum(t.nbytes for t in getattr(host, name)) / host.max_tokens / L
    print(f"{name}: host {h} device {d}")
    res[name] = (h, d)
assert res["index_k"] == (130, 132)
assert res["latent"] == (1152, 1152)
print("p03 OK")
