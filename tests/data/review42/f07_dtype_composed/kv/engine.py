from .pools import DeviceKVPool, HostRawPool


def build(cfg, args, dtype):
    stride = 2 * cfg.kv_heads * cfg.head_dim * dtype.itemsize
    dev = DeviceKVPool(args.gpu_tokens, cfg.num_layers, cfg.kv_heads, cfg.head_dim, dtype)
    host = HostRawPool(dev, args.host_tokens, stride)
    return dev, host
