import enum

import torch


class Part(enum.IntFlag):
    K = 1
    V = 2
    KV = 3
    SCALE = 4


WIDTH = {1: 256, 2: 256, 3: 512, 4: 16}


def row_bytes(parts):
    total = 0
    for p in Part:
        total += WIDTH[p.value]
    return total


class DevicePool:
    def __init__(self, size, layer_num, device="cuda"):
        self.size = size
        self.kv_buffer = [torch.empty((size, 256 + 256 + 16), dtype=torch.uint8, device=device)
                          for _ in range(layer_num)]


class HostPool:
    def __init__(self, size, layer_num, device="cpu"):
        self.kv_buffer = [torch.empty((size, row_bytes(None)), dtype=torch.uint8,
                                      device=device) for _ in range(layer_num)]


def build(size, layer_num, device="cuda", host="cpu"):
    gpu = DevicePool(size, layer_num, device=device)
    cpu = HostPool(2 * size, layer_num, device=host)
    return gpu, cpu
