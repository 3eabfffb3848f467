"""Device KV pool of the decode instance."""
import torch


class DecodeKVPool:
    def __init__(self, num_tokens, num_layers, num_kv_heads, head_dim, dtype=torch.bfloat16, device="cuda"):
        self.num_tokens = num_tokens
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.k_buffer = torch.empty((num_layers, num_tokens, num_kv_heads, head_dim), dtype=dtype, device=device)
        self.v_buffer = torch.empty((num_layers, num_tokens, num_kv_heads, head_dim), dtype=dtype, device=device)
        self.free_slots = torch.arange(num_tokens, device=device)

    def alloc(self, n):
        out, self.free_slots = self.free_slots[:n], self.free_slots[n:]
        return out

    def free(self, token_ids):
        self.free_slots = torch.cat([self.free_slots, token_ids])
