"""Host-side page tiers; chosen by ``cfg["host_tier"]``."""
import torch

from .layout import kv_dtype, page_shape


class HostStagingPool:
    """Per-layer host page arrays used to stage pages evicted from the device."""

    def __init__(self, cfg, device="cpu"):
        self.num_layers = cfg["num_hidden_layers"]
        self.num_pages = cfg["num_host_pages"]
        self.page_size = cfg["page_size"]
        self.pages = [
            torch.empty((self.num_pages,) + page_shape(cfg), dtype=kv_dtype(cfg), device=device, pin_memory=self._pin(device))
            for _ in range(self.num_layers)
        ]

    @staticmethod
    def _pin(device):
        return torch.device(device).type == "cpu" and torch.cuda.is_available()

    def evict(self, cache, device_page_ids, host_page_ids):
        for layer in range(self.num_layers):
            self.pages[layer][host_page_ids] = cache.pages[layer][device_page_ids].to(self.pages[layer].device)

    def restore(self, cache, host_page_ids, device_page_ids):
        for layer in range(self.num_layers):
            cache.pages[layer][device_page_ids] = self.pages[layer][host_page_ids].to(cache.arena.device)


class HostSnapshotPool(HostStagingPool):
    """Same layout, but pages are written once and never restored in place."""

    def restore(self, cache, host_page_ids, device_page_ids):
        raise NotImplementedError("snapshot pool is write-only")


HOST_TIERS = {"staging": HostStagingPool, "snapshot": HostSnapshotPool}


def make_host_tier(cfg, device="cpu"):
    return HOST_TIERS[cfg["host_tier"]](cfg, device=device)
