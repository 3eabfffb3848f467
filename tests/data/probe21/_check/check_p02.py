import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p02"))
from _util import bptl, verify  # noqa: E402
from srt_mem.pool_factory import build_kv_pools  # noqa: E402

dev, other = build_kv_pools(device="meta")
dt, L = dev.size + dev.page_size, dev.layer_num
verify("p02", "host", {
    "k_buffer": (bptl(other.kv_buffer[0], other.size, other.layer_num), bptl(dev.k_buffer, dt, L)),
    "v_buffer": (bptl(other.kv_buffer[1], other.size, other.layer_num), bptl(dev.v_buffer, dt, L)),
})
