"""Host mirror used by the prefix cache when device slots are evicted."""
import torch


class HostKVMirror:
    """Host-resident copy of a :class:`DeviceKVPool`, with its own slot space."""

    def __init__(self, kv_pool, num_host_tokens, cache_dtype, scale_dtype, device="cpu"):
        self.num_layers = kv_pool.num_layers
        self.num_host_tokens = num_host_tokens
        heads, dim = kv_pool.num_kv_heads, kv_pool.head_dim
        pin = device == "cpu" and torch.cuda.is_available()
        self.k_cache = torch.empty((self.num_layers, num_host_tokens, heads, dim), dtype=cache_dtype, device=device, pin_memory=pin)
        self.v_cache = torch.empty((self.num_layers, num_host_tokens, heads, dim), dtype=cache_dtype, device=device, pin_memory=pin)
        self.k_scale = torch.empty((self.num_layers, num_host_tokens, heads), dtype=scale_dtype, device=device, pin_memory=pin)
        self.v_scale = torch.empty((self.num_layers, num_host_tokens, heads), dtype=scale_dtype, device=device, pin_memory=pin)

    def _pairs(self, kv_pool):
        return (
            (self.k_cache, kv_pool.k_cache),
            (self.v_cache, kv_pool.v_cache),
            (self.k_scale, kv_pool.k_scale),
            (self.v_scale, kv_pool.v_scale),
        )

    def backup(self, kv_pool, device_slots, host_slots):
        for host_buf, dev_buf in self._pairs(kv_pool):
            host_buf[:, host_slots] = dev_buf[:, device_slots].to(host_buf.device)

    def restore(self, kv_pool, host_slots, device_slots):
        for host_buf, dev_buf in self._pairs(kv_pool):
            dev_buf[:, device_slots] = host_buf[:, host_slots].to(dev_buf.device, non_blocking=True)
