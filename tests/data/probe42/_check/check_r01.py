import dataclasses

from common import add_tree, per_token, verify

add_tree("r01")
from tidepool.config import PoolConfig  # noqa: E402
from tidepool.engine import build_ledgers  # noqa: E402

measured = {}
for layout in ("layer_first", "page_first"):
    cfg = dataclasses.replace(PoolConfig(), device="meta", host_device="meta",
                              pin_memory=False, host_layout=layout)
    dev, host = build_ledgers(cfg)
    dslots = dev.num_pages * dev.page_size
    hslots = host.num_pages * host.page_size
    assert dslots == dev.k_buffer[0].shape[0] * dev.k_buffer[0].shape[1]
    m = {a: (per_token(getattr(host, a), hslots), per_token(getattr(dev, a), dslots))
         for a in ("k_buffer", "v_buffer")}
    if layout == "page_first":
        assert m == measured, (m, measured)
    measured = m
verify("r01", dev, host, build_ledgers, measured)
