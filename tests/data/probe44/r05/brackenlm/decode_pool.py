import torch


class DecodeKVPool:
    """Receives prefilled KV from the prefill worker and serves decode."""

    def __init__(self, dims):
        self.capacity = dims.decode_tokens
        template = torch.empty(0, dtype=getattr(torch, dims.dtype), device=dims.device)
        k_shape = (self.capacity, dims.num_kv_heads, dims.head_dim)
        v_shape = k_shape
        self.k_store = [template.new_empty(k_shape) for _ in range(dims.num_layers)]
        self.v_store = [template.new_empty(v_shape) for _ in range(dims.num_layers)]

    def import_pages(self, idx, pages):
        for layer, (k, v) in enumerate(pages):
            self.k_store[layer][idx] = k
            self.v_store[layer][idx] = v
