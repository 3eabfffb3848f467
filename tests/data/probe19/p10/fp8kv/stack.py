import torch

from .env import SETTINGS
from .quant import SCALE_DTYPE, is_fp8, storage_dtype


class Fp8DeviceKV:
    """data[layer, k_or_v, slot, head, dim] in fp8; scales[layer, slot, k_or_v, head]."""

    def __init__(self, st: dict, device="cuda"):
        self.layers = st["layers"]
        self.num_slots = st["num_slots"]
        dtype = storage_dtype(st["kv_format"])
        self.data = torch.empty((self.layers, 2, self.num_slots, st["kv_heads"], st["head_dim"]),
                                dtype=dtype, device=device)
        self.scales = None
        if st["per_token_scales"] and is_fp8(dtype):
            self.scales = torch.ones((self.layers, self.num_slots, 2, st["kv_heads"]),
                                     dtype=SCALE_DTYPE, device=device)


class PinnedStaging:
    """Host bounce buffer: a chunk of slots is copied here before going to disk."""

    def __init__(self, st: dict, device="cpu"):
        self.layers = st["layers"]
        self.num_slots = st["staging_tokens"]
        dtype = storage_dtype(st["kv_format"])
        pin = torch.cuda.is_available() and str(device) == "cpu"
        self.data = torch.empty((self.layers, 2, self.num_slots, st["kv_heads"], st["head_dim"]),
                                dtype=dtype, device=device, pin_memory=pin)
        self.scales = None
        if st.get("fp8_scales", False) and is_fp8(dtype):
            self.scales = torch.empty((self.layers, self.num_slots, 2, st["kv_heads"]),
                                      dtype=SCALE_DTYPE, device=device, pin_memory=pin)

    def stage(self, dev: Fp8DeviceKV, slots: torch.Tensor):
        n = slots.numel()
        self.data[:, :, :n].copy_(dev.data[:, :, slots], non_blocking=True)
        if self.scales is not None and dev.scales is not None:
            self.scales[:, :n].copy_(dev.scales[:, slots], non_blocking=True)


def create_kv_stack(settings=None, device="cuda", host_device="cpu"):
    st = dict(SETTINGS, **(settings or {}))
    return Fp8DeviceKV(st, device=device), PinnedStaging(st, device=host_device)
