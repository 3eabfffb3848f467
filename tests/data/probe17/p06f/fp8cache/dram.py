import torch


class DramKVPool:
    """Host-side tier.  Holds the fp8 payload as uint8 so it can be memcpy'd."""

    def __init__(self, hbm, ratio=4.0, pin=True, device="cpu"):
        self.num_layers = hbm.num_layers
        self.num_slots = int(hbm.num_slots * ratio)
        self.kv_fp8 = torch.empty(
            (hbm.num_layers, 2, self.num_slots, hbm.num_heads, hbm.head_size),
            dtype=torch.uint8, device=device, pin_memory=pin,
        )
        self.kv_scales = torch.empty(
            (hbm.num_layers, 2, self.num_slots, hbm.num_heads),
            dtype=torch.float32, device=device, pin_memory=pin,
        )

    def backup(self, hbm, src, dst):
        self.kv_fp8[:, :, dst].copy_(hbm.kv_fp8[:, :, src].view(torch.uint8), non_blocking=True)

    def restore(self, hbm, src, dst):
        hbm.kv_fp8[:, :, dst].view(torch.uint8).copy_(self.kv_fp8[:, :, src], non_blocking=True)
