import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p03"))
from _util import bptl, verify  # noqa: E402
from pd_disagg.registry import make_pair  # noqa: E402

dev, other = make_pair(device="meta")
dt, ot = dev.num_pages * dev.page_size, other.num_pages * other.page_size
verify("p03", "decode", {
    "kv_latent": (bptl(other.kv_latent, ot, other.num_layers), bptl(dev.kv_latent, dt, dev.num_layers)),
    "index_k": (bptl(other.index_k, ot, other.num_layers), bptl(dev.index_k, dt, dev.num_layers)),
})
