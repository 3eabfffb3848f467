from .device_pool import ShardedKVPool
from .host_shelf import ShardedHostShelf
from .options import CacheOptions


def bring_up(opts=None):
    opts = opts or CacheOptions()
    pool = ShardedKVPool.from_config(opts)
    shelf = ShardedHostShelf.from_config(opts)
    return pool, shelf
