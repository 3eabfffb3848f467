import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p01"))
from _util import bptl, verify  # noqa: E402
from vkv.config import CacheConfig, ModelConfig  # noqa: E402
from vkv.engine import CacheEngine  # noqa: E402

eng = CacheEngine(CacheConfig(), ModelConfig(), device="meta")
dev, other = eng.gpu_pool, eng.cpu_swap
dt, ot = dev.num_blocks * dev.block_size, other.num_blocks * other.block_size
L, OL = dev.num_layers, other.num_layers
verify("p01", "swap", {
    "kv_cache": (bptl(other.kv_cache, ot, OL), bptl(dev.kv_cache, dt, L)),
    "kv_scales": (bptl(other.kv_scales, ot, OL), bptl(dev.kv_scales, dt, L)),
})
