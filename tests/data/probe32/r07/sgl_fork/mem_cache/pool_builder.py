"""Model-runner helper that sizes and creates the KV pools."""
import torch

from .memory_pool import LatentKVPool
from .memory_pool_host import LatentKVPoolHost


def init_memory_pool(
    device="cuda",
    host_device=None,
    max_tokens=4096,
    page_size=64,
    n_layers=61,
    latent_dim=512,
    rope_dim=64,
    dtype=torch.bfloat16,
    host_to_device_ratio=2.0,
):
    """Return ``(device_pool, host_pool)``."""
    if host_device is None:
        host_device = "meta" if device == "meta" else "cpu"
    device_pool = LatentKVPool(
        max_tokens=max_tokens,
        page_size=page_size,
        dtype=dtype,
        latent_dim=latent_dim,
        rope_dim=rope_dim,
        n_layers=n_layers,
        device=device,
    )
    host_pool = LatentKVPoolHost(device_pool, host_to_device_ratio=host_to_device_ratio, device=host_device)
    return device_pool, host_pool
