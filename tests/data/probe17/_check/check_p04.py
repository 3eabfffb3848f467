import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p04"))
from mla_pool.factory import create

for kind in ("packed", "plain"):
    gpu, host = create(capacity=64, host_capacity=128, host_kind=kind,
                       device="meta", host_device="meta", pin=False)
    L = gpu.n_layers
    d = sum(t.nbytes for t in gpu.rows) / gpu.capacity / L
    h = sum(t.nbytes for t in host.rows) / host.capacity / L
    print(f"[{kind}] rows: host {h} device {d} ({type(host).__name__})")
    assert (h, d) == (1152, 1152)
print("p04 OK")
