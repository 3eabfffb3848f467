import torch

from .device_cache import LatentCache
from .mirror import LatentMirror


def make_caches(n_layers=61, max_tokens=131072, host_factor=3, device="cuda", host_device="cpu"):
    dev = LatentCache(n_layers, max_tokens, device=device)
    host = LatentMirror(dev, max_tokens * host_factor, pin=torch.cuda.is_available(),
                        device=host_device)
    return dev, host
