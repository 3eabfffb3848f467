import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r04")
from pinecrest.cache_config import CacheConfig
from pinecrest.builder import build_pools

gpu, cpu = build_pools(CacheConfig(device="meta", cpu_device="meta"))
g = gpu.num_blocks * gpu.block_size
h = cpu.num_blocks * cpu.block_size
assert gpu.key_blocks.shape[1] * gpu.key_blocks.shape[2] == g
measured = {
    "key_blocks": (per_token(cpu.k_layers, h), per_token(gpu.key_blocks, g)),
    "value_blocks": (per_token(cpu.v_layers, h), per_token(gpu.value_blocks, g)),
}
verify("r04", gpu, cpu, build_pools, measured)
