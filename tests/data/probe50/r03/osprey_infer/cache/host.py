import torch

from osprey_infer.cache.registry import register_pool
from osprey_infer.cache.sizing import bytes_per_element

_GIB = 1024 ** 3


@register_pool("mla", tier="host")
class LatentHostPool:
    """CPU copy of evicted latent pages, stored as bytes.

    The latent is replicated across TP ranks, so no head split applies here.
    """

    def __init__(self, num_local_layers, start_layer, c_kv_dim, k_pe_dim, dtype_name,
                 host_gb, page_size, host_device="cpu"):
        self.start_layer = start_layer
        self.num_local_layers = num_local_layers
        self.page_size = page_size
        self.token_bytes = (c_kv_dim + k_pe_dim) * bytes_per_element(dtype_name)
        tokens = int(host_gb * _GIB) // (self.token_bytes * num_local_layers)
        self.size = tokens - tokens % page_size
        self.buffer = torch.empty((num_local_layers, self.size, self.token_bytes),
                                  dtype=torch.uint8, device=host_device,
                                  pin_memory=(host_device == "cpu"))

    @classmethod
    def from_device_pool(cls, pool, hf, host_gb, host_device="cpu"):
        return cls(
            num_local_layers=pool.num_local_layers,
            start_layer=pool.start_layer,
            c_kv_dim=hf["kv_lora_rank"],
            k_pe_dim=hf["qk_rope_head_dim"],
            dtype_name=pool.dtype_name,
            host_gb=host_gb,
            page_size=pool.page_size,
            host_device=host_device,
        )
