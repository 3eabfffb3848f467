import os
import sys
from pathlib import Path
for k in ("KV_CACHE_DTYPE", "PP_SIZE", "KV_SLOTS", "MIGRATION_SLOTS"):
    os.environ.pop(k, None)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p09"))
from _util import bptl, verify  # noqa: E402
from hybrid_pp.stage import init_stage  # noqa: E402

dev, other = init_stage(device="meta")
L, OL = len(dev.layer_ids), len(other.layer_ids)
verify("p09", "peer", {
    "kv": (bptl(other.kv, other.slots, OL), bptl(dev.kv, dev.slots, L)),
    "kv_scale": (bptl(other.kv_scale, other.slots, OL), bptl(dev.kv_scale, dev.slots, L)),
})
