"""Codes and scales; the scales' dtype is a key of the geometry dict, its bytes its itemsize."""
import torch


class ScaledStore:
    def __init__(self, geom: dict, size: int, layer_num: int, device="cuda"):
        width = geom["heads"] * geom["scale_dtype"].itemsize
        self.codes = [
            torch.zeros((size, geom["heads"] * 64), dtype=torch.uint8, device=device)
            for _ in range(layer_num)
        ]
        self.scales = [
            torch.zeros((size, width), dtype=torch.uint8, device=device) for _ in range(layer_num)
        ]
