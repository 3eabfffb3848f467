from .device_cache import ShardedKVCache
from .host_cache import HostKVSpill
from .options import WrenOptions


def provision_caches(opts: WrenOptions = None):
    opts = opts or WrenOptions()
    device_cache = ShardedKVCache(**opts.flat())
    host_cache = HostKVSpill(opts.attn, opts.memory)
    return device_cache, host_cache
