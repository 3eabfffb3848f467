"""Host pool for hierarchical caching of MLA KV."""
import torch


class LatentKVPoolHost:
    """Host copy of the latent KV rows, sized as a multiple of the device pool."""

    def __init__(self, device_pool, host_to_device_ratio=2.0, device="cpu"):
        self.device_pool = device_pool
        self.page_size = device_pool.page_size
        self.n_layers = device_pool.n_layers
        self.dtype = device_pool.store_dtype
        self.latent_dim = device_pool.latent_dim
        self.size = int(device_pool.max_tokens * host_to_device_ratio)
        self.size = self.size - self.size % self.page_size
        self.size_per_token = self.latent_dim * self.dtype.itemsize * self.n_layers
        pin = device == "cpu" and torch.cuda.is_available()
        self.kv_buffer = torch.empty(
            (self.n_layers, self.size, 1, self.latent_dim), dtype=self.dtype, device=device, pin_memory=pin
        )

    def load_to_device_per_layer(self, device_pool, host_indices, device_indices, layer_id):
        device_pool.kv_buffer[layer_id][device_indices] = self.kv_buffer[layer_id][host_indices].to(
            device_pool.device, non_blocking=True
        )

    def backup_from_device_all_layer(self, device_pool, host_indices, device_indices):
        for layer_id in range(self.n_layers):
            self.kv_buffer[layer_id][host_indices] = device_pool.kv_buffer[layer_id][device_indices].to(
                self.kv_buffer.device
            )
