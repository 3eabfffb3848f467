from .base import DepotConfig
from .device_depot import Int8KVDepot
from .swap_depot import PinnedSwapDepot


def make_depots(cfg=None):
    cfg = cfg or DepotConfig()
    device_depot = Int8KVDepot(cfg)
    swap_depot = PinnedSwapDepot(cfg)
    assert device_depot.token_bytes() == swap_depot.token_bytes()
    return device_depot, swap_depot
