from common import setup, bpt, compare

setup("r02")
from lmd_engine.engine import build_cache_engines

gpu, host = build_cache_engines(device="meta")
dt, dl = gpu.num_gpu_tokens, gpu.num_layers
ht, hl = host.num_cpu_tokens, host.num_layers
measured = {}
for name in ("key_cache", "value_cache", "key_scale_zero", "value_scale_zero"):
    d, h = getattr(gpu, name), getattr(host, name)
    assert len(d) == dl and len(h) == hl
    measured[name] = (bpt([(h, ht, hl)]), bpt([(d, dt, dl)]))
compare("r02", measured)
