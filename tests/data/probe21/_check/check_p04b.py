import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p04b"))
from _util import bptl, verify  # noqa: E402
from trtkv.manager import KVCacheManager  # noqa: E402

mgr = KVCacheManager.from_config(device="meta")
dev, other = mgr.primary, mgr.secondary
dt, ot = dev.num_blocks * dev.tokens_per_block, other.num_blocks * other.tokens_per_block
verify("p04b", "host", {
    "kv_pool": (bptl(other.kv_pool, ot, len(other.layers)), bptl(dev.kv_pool, dt, len(dev.layers))),
    "kv_scale": (bptl(other.kv_scale, ot, len(other.layers)), bptl(dev.kv_scale, dt, len(dev.layers))),
})
