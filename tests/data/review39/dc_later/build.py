from pools import DeviceKVPool, HostKVPool


def build(size, layer_num, head_num, dtype):
    dev = DeviceKVPool(size, layer_num, head_num, dtype)
    host = HostKVPool(dev, size * 2, layer_num)
    return dev, host
