import torch


class DecodeKVStore:
    """Receives KV pages from prefill instances. Layer-major tensors so one
    RDMA write per (layer, page) lands contiguously."""

    def __init__(self, model_config, num_tokens, device):
        self.num_tokens = num_tokens
        self.num_layers = model_config.num_hidden_layers
        self.num_kv_heads = model_config.kv_heads_per_rank()
        self.head_dim = model_config.hidden_size // model_config.num_attention_heads
        self.dtype = model_config.dtype
        shape = (self.num_layers, num_tokens, self.num_kv_heads, self.head_dim)
        self.k_store = torch.empty(shape, dtype=self.dtype, device=device)
        self.v_store = torch.empty(shape, dtype=self.dtype, device=device)

    def token_bytes(self):
        return self.k_store[0, 0].nbytes
