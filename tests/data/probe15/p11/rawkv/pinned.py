import torch

from rawkv.gpu import KVCache


class PinnedKVMirror:
    """Raw pinned bytes; the transfer engine copies whole token rows."""

    def __init__(self, device_pool: KVCache, host_tokens: int):
        self.host_tokens = host_tokens
        self.token_bytes = device_pool.kv_heads * device_pool.head_dim * device_pool.dtype.itemsize
        self.kv_buffer = torch.empty((device_pool.layers, host_tokens, self.token_bytes), dtype=torch.uint8)

    def view_layer(self, layer_id: int, device_pool: KVCache):
        return self.kv_buffer[layer_id].view(device_pool.dtype)
