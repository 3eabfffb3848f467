import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p08"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from pagedserve.settings import ServeSettings
from pagedserve.staging import build

for s, exp in ((ServeSettings(host_pages=2), (4096, 2048)),
               (ServeSettings(host_pages=2, kv_cache_dtype="fp8"), (1024, 1024))):
    dev, host = build(s, device="meta")
    L, P = s.n_layers, s.page_size
    d = bptl(dev.kv_pages, dev.num_pages * P, L)
    h = bptl(host.kv_pages, host.num_pages * P, L)
    print(s.kv_cache_dtype, "kv_pages host", h, "device", d)
    assert (h, d) == exp
print("OK p08")
