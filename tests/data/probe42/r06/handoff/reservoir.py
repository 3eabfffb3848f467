import torch


class DecodeKVReservoir:
    """Token-granular device pool: k_cache / v_cache are [layers, tokens, heads, dim]."""

    def __init__(self, size, head_num, head_dim, layer_num, dtype, device):
        self.size = size
        self.head_num = head_num
        self.head_dim = head_dim
        self.layer_num = layer_num
        self.dtype = dtype
        self.k_cache = torch.stack(
            [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
             for _ in range(layer_num)]
        )
        self.v_cache = torch.stack(
            [torch.empty((size, head_num, head_dim), dtype=dtype, device=device)
             for _ in range(layer_num)]
        )

    def write_tokens(self, layer_id, loc, k, v):
        self.k_cache[layer_id, loc] = k
        self.v_cache[layer_id, loc] = v
