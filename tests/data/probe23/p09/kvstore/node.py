import os

from kvstore.conf import parse_conf
from kvstore.shelf import Shelf
from kvstore.tiers import make_tier


class KVNode:
    def __init__(self, conf_text=None, device=None, tier_device=None):
        self.conf = parse_conf(conf_text) if conf_text else parse_conf()
        self.shelf = Shelf(self.conf, device=device or os.environ.get(
            "KVSTORE_DEVICE", "cuda"))
        self.tiers = {}
        for name in str(self.conf.tiers.enabled).split(","):
            name = name.strip()
            if name:
                self.tiers[name] = make_tier(name, self.shelf, self.conf,
                                             device=tier_device or "cpu")


if __name__ == "__main__":
    KVNode()
