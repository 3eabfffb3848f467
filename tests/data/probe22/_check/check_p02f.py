import _util
_util.tree_path("p02f")
from lmdeploy_lite.engine.engine import build_engine

NAMES = ["key_cache", "value_cache", "key_scales_zeros", "value_scales_zeros"]
eng = build_engine(num_gpu_blocks=256, swap_space_bytes=1 << 28, device="meta",
                   host_device="meta")
dev, host = eng.cache_engine, eng.host_cache
L = eng.model_config.num_layers
dtok = eng.cache_config.num_gpu_blocks * eng.cache_config.block_size
htok = host.num_blocks * host.block_size
assert host.num_blocks > 0
d = {n: _util.bpt([layer[i] for layer in dev.local_gpu_cache], dtok, L)
     for i, n in enumerate(NAMES)}
m = {n: _util.bpt([layer[i] for layer in host.local_cpu_cache], htok, L)
     for i, n in enumerate(NAMES)}
_util.verify("p02f", d, m)
