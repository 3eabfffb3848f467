import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p06"))
from fp8cache.engine import EngineArgs, init_kv

args = EngineArgs(num_slots=64)
hbm, dram = init_kv(args, device="meta", host_device="meta")
L = args.num_layers
def per(obj, name, slots):
    t = getattr(obj, name, None)
    return 0 if t is None else t.nbytes / slots / L
res = {}
for name in ("kv_fp8", "kv_scales"):
    h, d = per(dram, name, dram.num_slots), per(hbm, name, hbm.num_slots)
    print(f"{name}: host {h} device {d}")
    res[name] = (h, d)
assert res["kv_fp8"] == (2048, 2048)
assert res["kv_scales"] == (0, 64)
print("p06 OK")
