"""Quantized device cache and its CPU swap companion."""

import torch

from .cache_mode import CacheMode, scale_shape, state_shape


class QuantCache:
    """Device KV cache; per-layer lists as in ExLlamaV2's ExLlamaV2Cache_Q4."""

    def __init__(self, cfg, batch_size=2, mode=CacheMode.Q4, device="cuda"):
        self.cfg = cfg
        self.batch_size = batch_size
        self.max_seq_len = cfg.max_seq_len
        self.mode = mode
        self.num_layers = cfg.num_hidden_layers
        shape = state_shape(cfg, batch_size, self.max_seq_len, mode)
        self.key_states = [torch.zeros(shape, dtype=mode.storage_dtype, device=device) for _ in range(self.num_layers)]
        self.value_states = [torch.zeros(shape, dtype=mode.storage_dtype, device=device) for _ in range(self.num_layers)]
        self.kv_scales = []
        if mode.quantized:
            sshape = scale_shape(cfg, batch_size, self.max_seq_len, group_size=cfg.q_group_size)
            self.kv_scales = [torch.zeros(sshape, dtype=torch.float16, device=device) for _ in range(self.num_layers)]

    def layer(self, idx):
        scales = self.kv_scales[idx] if self.kv_scales else None
        return self.key_states[idx], self.value_states[idx], scales


class SwapCache:
    """Host copy of whole batch rows, used when a job is paused to free its device slot."""

    def __init__(self, cfg, num_slots=4, mode=CacheMode.Q4, device="cpu"):
        self.num_slots = num_slots
        self.max_seq_len = cfg.max_seq_len
        self.mode = mode
        n = cfg.num_hidden_layers
        shape = state_shape(cfg, num_slots, self.max_seq_len, mode)
        self.key_states = [torch.empty(shape, dtype=mode.storage_dtype, device=device) for _ in range(n)]
        self.value_states = [torch.empty(shape, dtype=mode.storage_dtype, device=device) for _ in range(n)]
        self.kv_scales = []
        if mode.quantized:
            sshape = scale_shape(cfg, num_slots, self.max_seq_len)
            self.kv_scales = [torch.empty(sshape, dtype=torch.float16, device=device) for _ in range(n)]

    def swap_out(self, cache, batch_idx, slot, length):
        for i in range(len(self.key_states)):
            self.key_states[i][slot, :length].copy_(cache.key_states[i][batch_idx, :length])
            self.value_states[i][slot, :length].copy_(cache.value_states[i][batch_idx, :length])
            if self.kv_scales:
                self.kv_scales[i][slot, :length].copy_(cache.kv_scales[i][batch_idx, :length])

    def swap_in(self, cache, slot, batch_idx, length):
        for i in range(len(self.key_states)):
            cache.key_states[i][batch_idx, :length].copy_(self.key_states[i][slot, :length])
            cache.value_states[i][batch_idx, :length].copy_(self.value_states[i][slot, :length])
            if self.kv_scales:
                cache.kv_scales[i][batch_idx, :length].copy_(self.kv_scales[i][slot, :length])
