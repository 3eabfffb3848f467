"""Host-side mirror of the device KV store used for prefix-cache spill.

Layout is token-major across *all* layers so that one evicted token is a single
contiguous row: (slots, n_layers, 2, kv_heads, head_size).
"""
import torch

from .dtypes import dtype_from_str


class CpuKVMirror:
    def __init__(self, device_store, cfg, device="cpu", pin=True):
        self.cfg = cfg
        self.slots = int(device_store.slots * cfg.host_ratio)
        self.n_layers = device_store.n_layers
        # heads per rank recomputed from the config rather than read back
        self.kv_heads = cfg.kv_head_num // cfg.tp_world_size
        self.head_size = cfg.head_dim
        self.dtype = dtype_from_str(cfg.data_type)
        pin = pin and device == "cpu" and torch.cuda.is_available()
        self.kv_host = torch.empty(
            (self.slots, self.n_layers, 2, self.kv_heads, self.head_size),
            dtype=self.dtype, device=device, pin_memory=pin,
        )

    def backup(self, device_store, dev_loc: torch.Tensor, host_loc: torch.Tensor) -> None:
        for layer in range(self.n_layers):
            k = device_store.key_view(layer)[dev_loc]
            v = device_store.value_view(layer)[dev_loc]
            self.kv_host[host_loc, layer, 0] = k.to(self.kv_host.device, non_blocking=True)
            self.kv_host[host_loc, layer, 1] = v.to(self.kv_host.device, non_blocking=True)

    def restore(self, device_store, host_loc: torch.Tensor, dev_loc: torch.Tensor) -> None:
        for layer in range(self.n_layers):
            rows = self.kv_host[host_loc, layer].to(device_store.device)
            device_store.write(layer, dev_loc, rows[:, 0], rows[:, 1])
