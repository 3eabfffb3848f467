"""Host spill area for quantised KV of preempted sequences."""

import torch


class HostSpillArea:
    def __init__(self, cfg, slots, device="cpu"):
        self.slots = slots
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        data = (cfg.num_layers, slots, cfg.num_kv_heads, cfg.head_dim)
        scale = (cfg.num_layers, slots, cfg.num_kv_heads)
        self.tensors = {
            "k_q": torch.empty(data, dtype=torch.int8, device=device, pin_memory=pin),
            "v_q": torch.empty(data, dtype=torch.int8, device=device, pin_memory=pin),
            "k_scale": torch.empty(scale, dtype=cfg.torch_scale_dtype, device=device, pin_memory=pin),
            "v_scale": torch.empty(scale, dtype=cfg.torch_scale_dtype, device=device, pin_memory=pin),
        }
        self._free = list(range(slots))

    def spill(self, cache, dev_slots):
        if len(dev_slots) > len(self._free):
            raise MemoryError("host spill area exhausted")
        host_slots = [self._free.pop() for _ in dev_slots]
        dev_idx = torch.as_tensor(dev_slots)
        host_idx = torch.as_tensor(host_slots)
        for name, dst in self.tensors.items():
            src = getattr(cache, name)
            dst.index_copy_(1, host_idx, src.index_select(1, dev_idx.to(src.device)).cpu())
        return host_slots

    def fill(self, cache, host_slots, dev_slots):
        host_idx = torch.as_tensor(host_slots)
        for name, src in self.tensors.items():
            dst = getattr(cache, name)
            dst.index_copy_(1, torch.as_tensor(dev_slots, device=dst.device),
                            src.index_select(1, host_idx).to(dst.device))
        self._free.extend(host_slots)
