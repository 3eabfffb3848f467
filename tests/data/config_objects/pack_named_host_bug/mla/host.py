import torch
from mla.config import MLAConfig
from mla.device import LatentKVPool

class LatentKVPoolHost:
    def __init__(self, config: MLAConfig, device_pool: LatentKVPool, host_tokens: int):
        self.device_pool = device_pool
        self.config = config
        # BUG: rope part not mirrored
        self.latent_buffer = torch.empty(
            (self.config.num_hidden_layers, host_tokens, 1, self.config.kv_lora_rank),
            dtype=self.config.kv_cache_dtype, pin_memory=True)
