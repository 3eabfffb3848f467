import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p09"))
from dsa_cache.factory import build_kv

gpu, host = build_kv(n_tokens=64, offload_gib=0.001, device="meta", host_device="meta")
L = gpu.n_layers
res = {}
for name in ("ckv", "idx_keys"):
    d = getattr(gpu, name).nbytes / gpu.n_tokens / L
    t = getattr(host, name, None)
    h = 0 if t is None else t.nbytes / host.n_tokens / L
    print(f"{name}: host {h} device {d} ({type(gpu).__name__} / {type(host).__name__})")
    res[name] = (h, d)
assert res["ckv"] == (1152, 1152)
assert res["idx_keys"] == (0, 132)
print("p09 OK")
