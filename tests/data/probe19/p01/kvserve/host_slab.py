import torch

from .gpu_slab import SlotKVCache


class HostSlotMirror:
    """Host copy of SlotKVCache used to park evicted prefixes.

    Keeps K and V as separate per-layer lists so that a layer can be
    streamed back while the previous one is being computed.
    """

    def __init__(self, gpu: SlotKVCache, ratio: float, device="cpu"):
        self.n_layers = gpu.n_layers
        self.num_slots = int(gpu.num_slots * ratio)
        pin = torch.cuda.is_available() and str(device) == "cpu"
        shape = (self.num_slots, gpu.heads, gpu.head_dim)
        self.keys = [
            torch.empty(shape, dtype=gpu.dtype, device=device, pin_memory=pin)
            for _ in range(self.n_layers)
        ]
        self.values = [
            torch.empty(shape, dtype=gpu.dtype, device=device, pin_memory=pin)
            for _ in range(self.n_layers)
        ]

    def offload(self, gpu: SlotKVCache, gpu_slots, host_slots):
        for i in range(self.n_layers):
            self.keys[i][host_slots] = gpu.key(i)[gpu_slots].to("cpu", non_blocking=True)
            self.values[i][host_slots] = gpu.value(i)[gpu_slots].to("cpu", non_blocking=True)

    def load_layer(self, gpu: SlotKVCache, layer: int, host_slots, gpu_slots):
        dev = gpu.kv.device
        gpu.kv[0, layer, gpu_slots] = self.keys[layer][host_slots].to(dev, non_blocking=True)
        gpu.kv[1, layer, gpu_slots] = self.values[layer][host_slots].to(dev, non_blocking=True)
