import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p02"))
from arena.server import build_cache, DEFAULTS

arena, swap = build_cache(slots=64, swap_gib=0.01, device="meta", host_device="meta")
L = DEFAULTS["n_layers"]
d = arena.kv_data.nbytes / arena.slots / L
h = swap.kv_data.nbytes / swap.slots / L
print(f"kv_data: host {h} device {d} (host slots {swap.slots})")
assert (h, d) == (4096, 2048)
print("p02 OK")
