import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r02")
from quillinfer.settings import Settings
from quillinfer.runtime import make_cache

gpu, cpu = make_cache(Settings(device="meta", cpu_device="meta"))
g = gpu.k_data[0].shape[0]
h = cpu.k.shape[1]
measured = {
    "k_data": (per_token(cpu.k, h), per_token(gpu.k_data, g)),
    "v_data": (per_token(cpu.v, h), per_token(gpu.v_data, g)),
    "k_scale": (per_token(cpu.ks, h), per_token(gpu.k_scale, g)),
    "v_scale": (per_token(cpu.vs, h), per_token(gpu.v_scale, g)),
}
verify("r02", gpu, cpu, make_cache, measured)
