from .pools import DeviceKVPool, HostKVPool


def build(cfg, args):
    dev = DeviceKVPool(args.gpu_tokens, cfg.num_layers, cfg.kv_heads, cfg.head_dim)
    host = HostKVPool(dev, args.host_tokens)
    return dev, host
