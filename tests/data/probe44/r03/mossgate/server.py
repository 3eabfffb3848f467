from .spec import LatentSpec
from .latent_cache import LatentKVCache
from .swap_tier import LatentSwapTier

SWAP_MULTIPLIER = 4


def build_cache_tiers(spec=None, swap_device="cpu"):
    spec = spec or LatentSpec()
    device_cache = LatentKVCache(spec)
    swap_spec = spec._replace(tokens=spec.tokens * SWAP_MULTIPLIER, device=swap_device)
    swap = LatentSwapTier(swap_spec)
    return device_cache, swap


class SlotAllocator:
    """Free-list over token slots of one tier."""

    def __init__(self, num_slots):
        self.free = list(range(num_slots))

    def alloc(self, n):
        if n > len(self.free):
            return None
        out, self.free = self.free[:n], self.free[n:]
        return out

    def release(self, slots):
        self.free.extend(slots)
