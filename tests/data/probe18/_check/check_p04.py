import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p04"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from qkv.mirror import make_arena_pair

arena, mirror = make_arena_pair(cpu_slots=16, device="meta")
L = arena.cfg["n_layers"]
exp = {"k_q": 1024, "v_q": 1024, "k_scale": 128, "v_scale": 128}
for name, e in exp.items():
    d = bptl(arena.buffers[name], arena.num_slots, L)
    h = bptl(mirror.buffers[name], mirror.num_slots, L)
    print(name, "host", h, "device", d)
    assert h == d == e
assert set(arena.buffers) == set(mirror.buffers) == set(exp)
print("OK p04")
