import torch

_ELEM_BYTES = {"bfloat16": 2, "float16": 2, "float32": 4}


class HostHybridKV:
    """Host tier; sizes each layer from the interleave pattern directly."""

    def __init__(self, cfg):
        self.slots = cfg.host_slots
        dtype = getattr(torch, cfg.kv_dtype)
        self.keys, self.values = [], []
        self.layer_bytes = []
        for i in range(cfg.num_layers):
            full = i % cfg.sliding_window_pattern == cfg.sliding_window_pattern - 1
            heads = cfg.full_kv_heads if full else cfg.sliding_kv_heads
            self.layer_bytes.append(heads * cfg.head_dim * _ELEM_BYTES[cfg.kv_dtype])
            self.keys.append(torch.full((self.slots, heads, cfg.head_dim), 0,
                                        dtype=dtype, device=cfg.host_device))
            self.values.append(torch.full((self.slots, heads, cfg.head_dim), 0,
                                          dtype=dtype, device=cfg.host_device))

    def bytes_per_token(self):
        return 2 * sum(self.layer_bytes)
