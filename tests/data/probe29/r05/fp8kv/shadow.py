"""Host shadow of `QuantKVSlots` used by the hierarchical prefix cache."""
import math

import torch

from .slots import SCALE_BLOCK


class HostKVShadow:
    def __init__(self, num_slots, n_layers, row, store_dtype, quantized: bool = False, device="cpu"):
        self.num_slots = num_slots
        self.n_layers = n_layers
        self.row = row
        self.quantized = quantized
        self.data = torch.empty((n_layers, 2, num_slots, row), dtype=store_dtype, device=device)
        self.scales = None
        if quantized:
            self.scales = torch.empty(
                (n_layers, 2, num_slots, math.ceil(row / SCALE_BLOCK)), dtype=torch.float32, device=device
            )

    @classmethod
    def mirror_of(cls, slots, ratio: float, device="cpu"):
        return cls(
            num_slots=int(slots.num_slots * ratio),
            n_layers=slots.n_layers,
            row=slots.row,
            store_dtype=slots.store_dtype,
            device=device,
        )

    def backup(self, slots, host_idx, dev_idx):
        self.data[:, :, host_idx] = slots.data[:, :, dev_idx].to(self.data.device)
        if self.quantized:
            self.scales[:, :, host_idx] = slots.scales[:, :, dev_idx].to(self.data.device)

    def restore(self, slots, host_idx, dev_idx):
        slots.data[:, :, dev_idx] = self.data[:, :, host_idx].to(slots.device)
        if self.quantized:
            slots.scales[:, :, dev_idx] = self.scales[:, :, host_idx].to(slots.device)
