from common import setup, bpt, compare

setup("r04")
from mlc_rt.runtime import create_kv_state

dev, host = create_kv_state(device="meta", host_device="meta")
td, th = dev.num_pages * dev.page_size, host.num_pages * host.page_size
dev_bpt = bpt([(dev.arena, td, dev.num_layers)] + [(p, td, 1) for p in dev.pages])
host_bpt = bpt([(p, th, 1) for p in host.pages])
assert len(dev.pages) == dev.num_layers and len(host.pages) == host.num_layers
compare("r04", {"pages": (host_bpt, dev_bpt)})
