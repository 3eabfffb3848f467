import torch

from .buffers import NamedBuffers, dtype_of


def _host_geometry(cfg):
    heads = getattr(cfg, "kv_heads_local", cfg.num_kv_heads)
    return {
        "key_pages": (heads, cfg.qk_head_dim),
        "value_pages": (heads, cfg.v_head_dim),
    }


class HostKVSpill(NamedBuffers):
    def __init__(self, attn, memory):
        self.slots = memory.host_slots
        dtype = dtype_of(attn.dtype_name)
        for name, (heads, width) in _host_geometry(attn).items():
            per_layer = [
                torch.empty((self.slots, heads, width), dtype=dtype, device=memory.host_device,
                            pin_memory=memory.pin)
                for _ in range(attn.depth)
            ]
            self._register(name, per_layer)

    def spill(self, dev, layer, src, dst):
        for name, layers in self.named_buffers().items():
            layers[layer][dst] = getattr(dev, name)[layer, src].to(layers[layer].device)
