"""Host (CPU) copy of the MLA cache for hierarchical caching, sized by a RAM budget."""
import torch


class HostMLACache:
    def __init__(self, max_tokens, latent_dim, num_layers, dtype, device="cpu"):
        self.max_tokens = max_tokens
        self.latent_dim = latent_dim
        self.num_layers = num_layers
        self.dtype = dtype
        self.kv_buffer = torch.empty((num_layers, max_tokens, 1, latent_dim), dtype=dtype, device=device)

    @staticmethod
    def bytes_per_token(hf_config, dtype):
        latent = hf_config.kv_lora_rank + hf_config.qk_rope_head_dim
        return latent * dtype.itemsize * hf_config.num_hidden_layers

    @classmethod
    def from_config(cls, hf_config, host_mem_bytes, dtype=None, device="cpu"):
        dtype = dtype or hf_config.torch_dtype
        max_tokens = host_mem_bytes // cls.bytes_per_token(hf_config, dtype)
        return cls(
            max_tokens=max_tokens,
            latent_dim=hf_config.kv_lora_rank + hf_config.qk_rope_head_dim,
            num_layers=hf_config.num_hidden_layers,
            dtype=dtype,
            device=device,
        )

    def write_back(self, device_cache, host_idx, device_idx):
        for layer in range(self.num_layers):
            self.kv_buffer[layer, host_idx] = device_cache.kv_buffer[layer][device_idx].cpu()

    def load_back(self, device_cache, host_idx, device_idx):
        for layer in range(self.num_layers):
            rows = self.kv_buffer[layer, host_idx].to(device_cache.device, non_blocking=True)
            device_cache.kv_buffer[layer][device_idx] = rows
