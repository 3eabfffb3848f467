from typing import Optional

import torch

from hf_offload.offload_store import PinnedLayerStore


class Cache:
    is_compileable = False

    def get_seq_length(self, layer_idx: int = 0) -> int:
        raise NotImplementedError


class StaticCache(Cache):
    is_compileable = True

    def __init__(self, config, max_batch_size: int, max_cache_len: Optional[int] = None,
                 device=None, dtype: Optional[torch.dtype] = None):
        config = config.get_text_config()
        self.max_batch_size = max_batch_size
        self.max_cache_len = max_cache_len or config.max_position_embeddings
        self.head_dim = (getattr(config, "head_dim", None)
                         or config.hidden_size // config.num_attention_heads)
        self._dtype = dtype or config.dtype
        self.num_key_value_heads = (config.num_attention_heads
                                    if getattr(config, "num_key_value_heads", None) is None
                                    else config.num_key_value_heads)
        self.num_hidden_layers = config.num_hidden_layers
        self.cache_shape = (self.max_batch_size, self.num_key_value_heads,
                            self.max_cache_len, self.head_dim)
        self.device = torch.device(device) if device is not None else torch.device("cpu")
        self.key_cache, self.value_cache = self._allocate(self.num_hidden_layers)

    def _allocate(self, n_layers):
        keys, values = [], []
        for _ in range(n_layers):
            keys.append(torch.zeros(self.cache_shape, dtype=self._dtype, device=self.device))
            values.append(torch.zeros(self.cache_shape, dtype=self._dtype, device=self.device))
        return keys, values

    def update(self, key_states, value_states, layer_idx, cache_kwargs=None):
        pos = cache_kwargs["cache_position"]
        self.key_cache[layer_idx].index_copy_(2, pos, key_states)
        self.value_cache[layer_idx].index_copy_(2, pos, value_states)
        return self.key_cache[layer_idx], self.value_cache[layer_idx]


class OffloadedStaticCache(StaticCache):
    """Static cache whose layers live on `offload_device`; only two layers are
    resident on the accelerator (one in use, one being prefetched)."""

    NUM_DEVICE_SLOTS = 2

    def __init__(self, config, max_batch_size, max_cache_len=None, device=None,
                 dtype=None, offload_device="cpu"):
        self._offload_device = offload_device
        super().__init__(config, max_batch_size, max_cache_len, device, dtype)

    def _allocate(self, n_layers):
        # Accelerator side: prefetch slots only.
        keys, values = super()._allocate(self.NUM_DEVICE_SLOTS)
        # Offload side: every layer, shaped exactly like a device slot.
        self.offloaded = PinnedLayerStore(keys[0], n_layers, self._offload_device)
        self._prefetch_stream = None
        return keys, values

    def _prefetch_layer(self, layer_idx):
        slot = layer_idx % self.NUM_DEVICE_SLOTS
        k, v = self.offloaded.layer(layer_idx)
        self.key_cache[slot].copy_(k, non_blocking=True)
        self.value_cache[slot].copy_(v, non_blocking=True)
