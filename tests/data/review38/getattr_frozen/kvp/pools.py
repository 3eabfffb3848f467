import torch


class CacheArgs:
    """Read-only bag of host-cache settings; unset ones fall back to defaults."""

    _defaults = {"dtype": torch.float32, "page_size": 1}

    def __init__(self, **overrides):
        for key, value in overrides.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, name, value):
        raise AttributeError("CacheArgs is read-only")

    def __getattr__(self, name):
        if name in CacheArgs._defaults:
            return CacheArgs._defaults[name]
        raise AttributeError(name)


class DevicePool:
    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        self.k_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]
        self.v_buffer = [torch.zeros((size + 1, head_num, head_dim), dtype=dtype, device=device) for _ in range(layer_num)]


class HostPool:
    def __init__(self, device_pool, host_size):
        self.device_pool = device_pool
        self.size = host_size
        args = CacheArgs(dtype=device_pool.dtype)
        shape = (host_size, device_pool.head_num, device_pool.head_dim)
        self.k_buffer = [torch.zeros(shape, dtype=args.dtype) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.zeros(shape, dtype=args.dtype) for _ in range(device_pool.layer_num)]


def build(device="cuda"):
    dev = DevicePool(100, 8, 128, 4, torch.bfloat16, device)
    host = HostPool(dev, 200)
    return dev, host
