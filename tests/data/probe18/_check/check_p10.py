import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p10"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from nsakv.cpu import make_stage_pools

for kw, exp in (({}, {"latent": 1152, "index_keys": 132}),
                ({"index_fp8": False}, {"latent": 1152, "index_keys": 256}),
                ({"stage": 1, "num_stages": 4}, {"latent": 1152, "index_keys": 132})):
    dev, host = make_stage_pools(host_tokens=8, device="meta", **kw)
    assert dev.n_layers == host.n_layers
    for name, e in exp.items():
        d = bptl(getattr(dev, name), dev.n_tokens, dev.n_layers)
        h = bptl(getattr(host, name), host.n_tokens, host.n_layers)
        print(kw, name, "host", h, "device", d)
        assert h == d == e
print("OK p10")
