import torch


class PrefillKVPool:
    def __init__(self, dims):
        self.capacity = dims.prefill_tokens
        dtype = getattr(torch, dims.dtype)
        self.k_bufs = []
        self.v_bufs = []
        for _ in range(dims.num_layers):
            self.k_bufs.append(torch.zeros(
                (self.capacity, dims.num_kv_heads, dims.head_dim),
                dtype=dtype, device=dims.device))
            self.v_bufs.append(torch.zeros(
                (self.capacity, dims.num_kv_heads, dims.v_head_dim),
                dtype=dtype, device=dims.device))

    def export_pages(self, idx):
        """Gather KV rows for a finished prefill, ready for transfer."""
        return [(k[idx], v[idx]) for k, v in zip(self.k_bufs, self.v_bufs)]
