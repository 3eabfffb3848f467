import torch

from .config import QuantKVConfig


class QuantizedKVStore:
    def __init__(self, cfg: QuantKVConfig, num_slots: int, device="cuda"):
        self.cfg = cfg
        self.num_slots = num_slots
        h = cfg.local_kv_heads
        qd, sd = cfg.quant_dtype, cfg.scale_torch_dtype
        self.k_data, self.v_data, self.k_scale, self.v_scale = [], [], [], []
        for _ in range(cfg.n_layers):
            self.k_data.append(
                torch.empty((num_slots, h, cfg.key_width), dtype=qd, device=device)
            )
            self.v_data.append(
                torch.empty((num_slots, h, cfg.resolved_value_width), dtype=qd, device=device)
            )
            self.k_scale.append(torch.ones((num_slots, h), dtype=sd, device=device))
            self.v_scale.append(torch.ones((num_slots, h), dtype=sd, device=device))


class CpuShadowBuffer:
    ALIGN = 128

    def __init__(self, cfg: QuantKVConfig, num_slots: int, device="cpu"):
        self.cfg = cfg
        self.num_slots = num_slots
        h = cfg.local_kv_heads
        plan = [
            ("k", cfg.quant_dtype, (num_slots, h, cfg.key_width), cfg.kv_elem_bytes),
            ("v", cfg.quant_dtype, (num_slots, h, cfg.resolved_value_width), cfg.kv_elem_bytes),
            ("ks", cfg.scale_torch_dtype, (num_slots, h), cfg.scale_elem_bytes),
            ("vs", cfg.scale_torch_dtype, (num_slots, h), cfg.scale_elem_bytes),
        ]
        cursor = 0
        carve = []
        for name, dtype, shape, esz in plan:
            nbytes = esz
            for d in shape:
                nbytes *= d
            for layer in range(cfg.n_layers):
                carve.append((name, layer, cursor, nbytes, dtype, shape))
                cursor += -(-nbytes // self.ALIGN) * self.ALIGN
        self.flat = torch.empty(cursor, dtype=torch.uint8, device=device)
        views = {name: [] for name, *_ in plan}
        for name, _layer, off, nbytes, dtype, shape in carve:
            views[name].append(self.flat.narrow(0, off, nbytes).view(dtype).reshape(shape))
        self.shadow_k = views["k"]
        self.shadow_v = views["v"]
        self.shadow_ks = views["ks"]
        self.shadow_vs = views["vs"]
