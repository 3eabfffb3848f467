import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from wrenkv.launcher import provision_caches
from wrenkv.options import MemoryOptions, WrenOptions

opts = WrenOptions(memory=MemoryOptions(device="meta", host_device="meta"))
dev, host = provision_caches(opts)
measured = {
    name: (per_token(getattr(host, name), 16384), per_token(getattr(dev, name), 4096))
    for name in ("key_pages", "value_pages")
}
verify("r08", dev, host, provision_caches, measured)
