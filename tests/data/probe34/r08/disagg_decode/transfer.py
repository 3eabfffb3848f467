"""Pinned staging buffer the prefill instance writes into (RDMA target).

Token-major layout keeps each request's KV for all layers contiguous, so one
RDMA write per request is enough.
"""
import torch


class KVTransferBuffer:
    def __init__(self, num_slots, num_layers, num_kv_heads, head_dim, dtype=torch.bfloat16,
                 device="cpu", pin_memory=True):
        self.num_slots = num_slots
        self.num_layers = num_layers
        self.k_buffer = torch.empty((num_slots, num_layers, num_kv_heads, head_dim), dtype=dtype,
                                    device=device, pin_memory=pin_memory)
        self.v_buffer = torch.empty((num_slots, num_layers, num_kv_heads, head_dim), dtype=dtype,
                                    device=device, pin_memory=pin_memory)
        self.cursor = 0

    def reserve(self, n):
        if self.cursor + n > self.num_slots:
            self.cursor = 0
        start = self.cursor
        self.cursor += n
        return start, start + n

    def region_addresses(self, start, end):
        return [(buf.data_ptr() + start * buf.stride(0) * buf.element_size(),
                 (end - start) * buf.stride(0) * buf.element_size()) for buf in (self.k_buffer, self.v_buffer)]

    def commit_to_pool(self, pool, start, end, token_ids):
        k = self.k_buffer[start:end].transpose(0, 1)
        v = self.v_buffer[start:end].transpose(0, 1)
        pool.k_buffer[:, token_ids] = k.to(pool.k_buffer.device, non_blocking=True)
        pool.v_buffer[:, token_ids] = v.to(pool.v_buffer.device, non_blocking=True)
