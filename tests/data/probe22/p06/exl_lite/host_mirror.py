"""Host-side session store: parks whole cache rows of idle chat sessions in RAM."""
import torch

from .cache import ExLlamaV2CacheBase


class HostCacheMirror:

    def __init__(self, cache: ExLlamaV2CacheBase, num_sessions: int, device: str = "cpu"):
        self.wbits = cache.wbits
        self.max_seq_len = cache.max_seq_len
        self.num_sessions = num_sessions
        self.num_layers = cache.num_hidden_layers
        per_head_bytes = cache.head_dim * cache.wbits // 8
        row_bytes = cache.num_key_value_heads * per_head_bytes
        quantized = cache.wbits < 16
        w_dtype = torch.uint8 if quantized else torch.half
        width = row_bytes if quantized else row_bytes // 2
        pin = device == "cpu" and torch.cuda.is_available()

        def buf(w, dt):
            return torch.empty((num_sessions, self.max_seq_len, w), dtype=dt, device=device,
                               pin_memory=pin)

        self.key_states = [buf(width, w_dtype) for _ in range(self.num_layers)]
        self.value_states = [buf(width, w_dtype) for _ in range(self.num_layers)]
        self.key_scales, self.value_scales = [], []
        if quantized:
            groups_per_head = cache.head_dim // cache.q_group_size
            sw = cache.num_key_value_heads * groups_per_head
            self.key_scales = [buf(sw, torch.half) for _ in range(self.num_layers)]
            self.value_scales = [buf(sw, torch.half) for _ in range(self.num_layers)]

    def park(self, cache: ExLlamaV2CacheBase, batch_idx: int, slot: int):
        for dst, src in ((self.key_states, cache.key_states),
                         (self.value_states, cache.value_states),
                         (self.key_scales, cache.key_scales),
                         (self.value_scales, cache.value_scales)):
            for d, s in zip(dst, src):
                d[slot].copy_(s[batch_idx], non_blocking=True)
