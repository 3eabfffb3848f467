"""Device KV slots. With `quantized`, K/V are stored as fp8 bytes plus one float32
scale per block of SCALE_BLOCK contiguous elements of a token's row."""
import math

import torch

SCALE_BLOCK = 128


class QuantKVSlots:
    fp8_dtype = torch.float8_e4m3fn

    def __init__(self, num_slots, n_layers, kv_heads_total, head_dim, tp_size=1,
                 dtype=torch.bfloat16, quantized: bool = False, device="cuda"):
        self.num_slots = num_slots
        self.n_layers = n_layers
        self.local_heads = kv_heads_total // tp_size
        self.head_dim = head_dim
        self.row = self.local_heads * head_dim
        self.dtype = dtype
        self.quantized = quantized
        self.store_dtype = torch.uint8 if quantized else dtype
        self.device = device
        self.data = torch.empty((n_layers, 2, num_slots, self.row), dtype=self.store_dtype, device=device)
        if quantized:
            n_blocks = math.ceil(self.row / SCALE_BLOCK)
            self.scales = torch.ones((n_layers, 2, num_slots, n_blocks), dtype=torch.float32, device=device)
        else:
            self.scales = None

    def keys(self, layer):
        k = self.data[layer, 0]
        return k.view(self.fp8_dtype) if self.quantized else k

    def values(self, layer):
        v = self.data[layer, 1]
        return v.view(self.fp8_dtype) if self.quantized else v

    def store(self, layer, slots, k, v, k_scale=None, v_scale=None):
        if self.quantized:
            self.data[layer, 0, slots] = k.view(torch.uint8).reshape(len(slots), self.row)
            self.data[layer, 1, slots] = v.view(torch.uint8).reshape(len(slots), self.row)
            self.scales[layer, 0, slots] = k_scale
            self.scales[layer, 1, slots] = v_scale
        else:
            self.data[layer, 0, slots] = k.reshape(len(slots), self.row)
            self.data[layer, 1, slots] = v.reshape(len(slots), self.row)
