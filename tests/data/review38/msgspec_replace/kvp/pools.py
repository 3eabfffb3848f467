import msgspec
import torch


class HostLayout(msgspec.Struct):
    head_num: int
    head_dim: int
    dtype: object


def host_layout_for(layout, dtype):
    if hasattr(layout, "_replace"):
        # legacy NamedTuple layouts: staged in fp32 on the host
        return layout._replace(dtype=torch.float32)
    return msgspec.structs.replace(layout, dtype=dtype)


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
        base = HostLayout(head_num=device_pool.head_num, head_dim=device_pool.head_dim, dtype=None)
        layout = host_layout_for(base, device_pool.dtype)
        shape = (host_size, layout.head_num, layout.head_dim)
        self.k_buffer = [torch.zeros(shape, dtype=layout.dtype) for _ in range(device_pool.layer_num)]
        self.v_buffer = [torch.zeros(shape, dtype=layout.dtype) for _ in range(device_pool.layer_num)]


def build(device="cuda"):
    dev = DevicePool(100, 8, 128, 4, torch.bfloat16, device)
    host = HostPool(dev, 200)
    return dev, host
