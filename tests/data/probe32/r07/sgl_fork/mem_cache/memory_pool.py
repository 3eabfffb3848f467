"""Device token-to-KV pool for MLA models (compressed latent + rope key)."""
import torch


class LatentKVPool:
    """One row per token slot: ``[max_tokens + page_size, 1, latent_dim + rope_dim]`` per layer.

    The first ``page_size`` rows are a padding page used for dummy writes.
    """

    def __init__(self, max_tokens, page_size, dtype, latent_dim, rope_dim, n_layers, device="cuda", start_layer=0):
        self.max_tokens = max_tokens
        self.page_size = page_size
        self.dtype = dtype
        self.latent_dim = latent_dim
        self.rope_dim = rope_dim
        self.n_layers = n_layers
        self.start_layer = start_layer
        self.device = device
        if dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
            self.store_dtype = torch.uint8
        else:
            self.store_dtype = dtype
        self.kv_buffer = [
            torch.zeros((max_tokens + page_size, 1, latent_dim + rope_dim), dtype=self.store_dtype, device=device)
            for _ in range(n_layers)
        ]

    def get_key_buffer(self, layer_id):
        buf = self.kv_buffer[layer_id - self.start_layer]
        return buf.view(self.dtype) if self.store_dtype != self.dtype else buf

    def get_value_buffer(self, layer_id):
        return self.get_key_buffer(layer_id)[..., : self.latent_dim]

    def set_kv_buffer(self, layer_id, loc, cache_k):
        if self.store_dtype != self.dtype:
            cache_k = cache_k.to(self.dtype).view(self.store_dtype)
        self.kv_buffer[layer_id - self.start_layer][loc] = cache_k

    def get_kv_size_bytes(self):
        return sum(b.numel() * b.element_size() for b in self.kv_buffer)
