import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import setup, bpt, compare, assert_device

setup("r08")
from hybridsrv.server import build_caches
from hybridsrv.host import HybridHostPool

dev, host = build_caches(device="meta")
assert isinstance(host, HybridHostPool)
assert_device(dev.full_kv + dev.swa_kv + [host.full_kv, host.swa_kv], "meta")
cfg = dev.cfg
assert len(dev.full_kv) == host.num_full_layers == len(cfg.full_layer_ids)
assert len(dev.swa_kv) == host.num_swa_layers == len(cfg.swa_layer_ids)
ps = dev.page_size
measured = {
    "full_kv": (bpt([(host.full_kv, host.full_pages * ps, host.num_full_layers)]),
                bpt((t, dev.full_num_pages * ps, 1) for t in dev.full_kv)),
    "swa_kv": (bpt([(host.swa_kv, host.swa_pages * ps, host.num_swa_layers)]),
               bpt((t, dev.swa_num_pages * ps, 1) for t in dev.swa_kv)),
}
compare("r08", measured)
