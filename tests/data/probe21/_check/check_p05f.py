import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p05f"))
from _util import bptl, verify  # noqa: E402
from specdec.runner import SpecDecodeRunner  # noqa: E402

r = SpecDecodeRunner(device="meta")
dev, other = r.target_cache, r.draft_cache
dt, ot = dev.num_pages * dev.page_size, other.num_pages * other.page_size
L, OL = dev.num_layers, other.num_layers
figures = ({
    name: (bptl(list(getattr(other, name).values()), ot, OL), bptl(getattr(dev, name), dt, L))
    for name in ("key_cache", "value_cache", "key_scale")
})

assert all(a == b for a, b in figures.values()), figures
print("OK p05f")
