"""Quantised KV cache resident on the accelerator."""

import torch

BUFFER_NAMES = ("k_q", "v_q", "k_scale", "v_scale")


def _layout(cfg, slots):
    data = (cfg.num_layers, slots, cfg.num_kv_heads, cfg.head_dim)
    scale = (cfg.num_layers, slots, cfg.num_kv_heads, cfg.groups_per_head)
    sdt = cfg.torch_scale_dtype
    return {
        "k_q": (data, torch.int8),
        "v_q": (data, torch.int8),
        "k_scale": (scale, sdt),
        "v_scale": (scale, sdt),
    }


class QuantizedKVCache:
    def __init__(self, cfg, slots, device="cuda"):
        self.cfg = cfg
        self.slots = slots
        tensors = {
            name: torch.empty(shape, dtype=dt, device=device)
            for name, (shape, dt) in _layout(cfg, slots).items()
        }
        for name, t in tensors.items():
            setattr(self, name, t)
        self._free = list(range(slots - 1, -1, -1))
        self._owned = {}

    def allocate(self, seq_id, n):
        if n > len(self._free):
            return None
        got = [self._free.pop() for _ in range(n)]
        self._owned.setdefault(seq_id, []).extend(got)
        return got

    def release(self, seq_id):
        slots = self._owned.pop(seq_id, [])
        self._free.extend(slots)
        return slots

    def slots_of(self, seq_id):
        return list(self._owned.get(seq_id, ()))

    def buffers(self):
        return {name: getattr(self, name) for name in BUFFER_NAMES}

    def quantize_into(self, layer, slots, k, v):
        g = self.cfg.group_size
        for src, q_name, s_name in ((k, "k_q", "k_scale"), (v, "v_q", "v_scale")):
            grouped = src.unflatten(-1, (-1, g))
            scale = grouped.abs().amax(-1).clamp_min(1e-6) / 127.0
            q = (grouped / scale.unsqueeze(-1)).round().clamp(-127, 127).flatten(-2)
            getattr(self, q_name)[layer, slots] = q.to(torch.int8)
            getattr(self, s_name)[layer, slots] = scale.to(self.cfg.torch_scale_dtype)

    def dequantize(self, layer, slots):
        out = []
        for q_name, s_name in (("k_q", "k_scale"), ("v_q", "v_scale")):
            q = getattr(self, q_name)[layer, slots].float()
            s = getattr(self, s_name)[layer, slots].float()
            out.append((q.unflatten(-1, (-1, self.cfg.group_size)) * s.unsqueeze(-1)).flatten(-2))
        return tuple(out)
