from .device import RowPool
from .host import RowPoolHost

def build(args, cfg):
    gpu = RowPool(args.max_tokens, cfg)
    cpu = RowPoolHost(gpu, args.host_tokens)
    return gpu, cpu
