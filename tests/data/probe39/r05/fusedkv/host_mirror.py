"""Pinned host mirror of the fused slab for prefix reuse across requests."""

import torch

from .defaults import local_kv_heads, resolve_dtype


class PinnedKVMirror:
    def __init__(self, cfg, num_tokens, device="cpu"):
        self.num_tokens = num_tokens
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        heads = local_kv_heads(cfg)
        # stored token-major directly; the device slab exposes the same order
        self.kv_tokens = torch.empty(
            (num_tokens, cfg["num_layers"], heads, 2 * cfg["head_dim"]),
            dtype=resolve_dtype(cfg), device=device, pin_memory=pin)
        self._cursor = 0
        self.index = {}

    def save(self, key, slab, start, stop):
        n = stop - start
        if self._cursor + n > self.num_tokens:
            self._cursor = 0
            self.index.clear()
        dst = self.kv_tokens[self._cursor: self._cursor + n]
        dst.copy_(slab.token_range(start, stop), non_blocking=True)
        self.index[key] = (self._cursor, n)
        self._cursor += n

    def load(self, key, slab, start):
        off, n = self.index[key]
        slab.token_range(start, start + n).copy_(self.kv_tokens[off: off + n],
                                                 non_blocking=True)
        return n
