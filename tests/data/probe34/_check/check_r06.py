from common import setup, bpt, compare
setup("r06")
from aphro_fp8.engine import build_caches

gpu, cpu = build_caches(device="meta")
assert cpu.key_cache.is_meta
L = gpu.spec.num_layers
gtok = gpu.num_blocks * gpu.spec.block_size
measured = {}
for name in ("key_cache", "value_cache", "k_scale", "v_scale"):
    measured[name] = (bpt([(getattr(cpu, name), cpu.num_slots, L)]),
                      bpt([(t, gtok, 1) for t in getattr(gpu, name)]))
compare("r06", measured)
