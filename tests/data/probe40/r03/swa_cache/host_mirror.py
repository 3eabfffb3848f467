"""Pinned host copy of the hybrid cache used by hierarchical prefix caching."""
import torch

from .layers import split_layers
from .spec import KVGeometry


class WindowedHostMirror:
    def __init__(self, geom: KVGeometry, num_layers: int, global_every: int,
                 host_full_slots: int, host_swa_slots: int, pin_memory: bool = True):
        self.geom = geom
        full_layers, swa_layers = split_layers(num_layers, global_every)
        shape = geom.slot_shape()
        alloc = lambda n: torch.empty((n,) + shape, dtype=geom.torch_dtype, pin_memory=pin_memory)
        self.full_kv = [alloc(host_full_slots) for _ in full_layers]
        self.swa_kv = [alloc(host_swa_slots) for _ in swa_layers]

    def offload(self, cache, kind: str, host_loc, dev_loc):
        src = cache.full_kv if kind == "full" else cache.swa_kv
        dst = self.full_kv if kind == "full" else self.swa_kv
        for i, host_buf in enumerate(dst):
            host_buf[host_loc] = src[i][dev_loc].to("cpu", non_blocking=True)

    def reload(self, cache, kind: str, host_loc, dev_loc):
        src = self.full_kv if kind == "full" else self.swa_kv
        dst = cache.full_kv if kind == "full" else cache.swa_kv
        for i, host_buf in enumerate(src):
            dst[i][dev_loc] = host_buf[host_loc].to(dst.device, non_blocking=True)
