import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r01")
from ferrylm.config import CacheSettings
from ferrylm.runtime import make_cache_pair

cfg = CacheSettings(gpu="meta", cpu="meta")
dev, host = make_cache_pair(cfg)
dev_slots = cfg.token_capacity + 1
host_slots = int(cfg.token_capacity * cfg.host_ratio)
measured = {
    "k_cache": (per_token(host.k_layers, host_slots), per_token(dev.k_cache, dev_slots)),
    "v_cache": (per_token(host.v_layers, host_slots), per_token(dev.v_cache, dev_slots)),
}
verify("r01", dev, host, make_cache_pair, measured)
