"""Byte arena holding the compressed latent KV for every cached token.

The arena is reserved as raw bytes so that the same allocation can later be
reinterpreted (e.g. fp8 latent + bf16 rope) without touching the allocator.
"""

import torch


class LatentKVArena:
    def __init__(self, spec, num_slots, dtype=torch.bfloat16, device="cuda"):
        self.spec = spec
        self.num_slots = num_slots
        self.dtype = dtype
        # compressed latent followed by the decoupled rope key
        self.row_elems = spec.kv_lora_rank + spec.qk_rope_head_dim
        self.row_bytes = self.row_elems * dtype.itemsize
        raw = torch.empty(
            (spec.num_hidden_layers, num_slots, self.row_bytes),
            dtype=torch.uint8, device=device)
        self.kv_latent = raw.view(dtype)
        self._next_free = 0
        self._released = []

    def latent(self, layer):
        return self.kv_latent[layer, :, : self.spec.kv_lora_rank]

    def rope_key(self, layer):
        return self.kv_latent[layer, :, self.spec.kv_lora_rank:]

    def write(self, layer, slots, latent, k_rope):
        row = self.kv_latent[layer]
        row[slots, : self.spec.kv_lora_rank] = latent
        row[slots, self.spec.kv_lora_rank:] = k_rope

    def alloc(self, n):
        out = []
        while self._released and len(out) < n:
            out.append(self._released.pop())
        need = n - len(out)
        if self._next_free + need > self.num_slots:
            self._released.extend(out)
            raise MemoryError(f"latent arena full ({self.num_slots} slots)")
        out.extend(range(self._next_free, self._next_free + need))
        self._next_free += need
        return out

    def free(self, slots):
        self._released.extend(slots)

    @property
    def bytes_per_token(self):
        return self.spec.num_hidden_layers * self.row_bytes
