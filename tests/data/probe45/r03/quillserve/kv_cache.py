import torch


class PrefillKVCache:
    """KV pool on the prefill instance, per-layer K and V tensors."""

    def __init__(self, num_tokens, num_layers, num_kv_heads, head_dim, dtype, device):
        self.num_tokens = num_tokens
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.dtype = dtype
        self.k_bufs = []
        self.v_bufs = []
        for _ in range(num_layers):
            self.k_bufs.append(torch.empty((num_tokens, num_kv_heads, head_dim), dtype=dtype, device=device))
            self.v_bufs.append(torch.empty((num_tokens, num_kv_heads, head_dim), dtype=dtype, device=device))

    def transfer_descriptors(self):
        """(ptr, bytes-per-token) pairs registered with the transfer engine."""
        return [(b.data_ptr(), b[0].nbytes) for b in self.k_bufs + self.v_bufs]
