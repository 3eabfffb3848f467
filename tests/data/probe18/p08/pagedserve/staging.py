import torch

from .device_pages import DevicePageTable


class HostPageStaging:
    """Host pages stored as flat rows so a whole page moves in one memcpy."""

    def __init__(self, dev: DevicePageTable, num_pages: int):
        s = dev.s
        self.num_pages = num_pages
        self.dtype = s.cache_dtype
        # bytes in one page of K (or V) for one layer
        self.page_stride = s.page_size * s.n_kv_heads * s.head_dim * self.dtype.itemsize
        self.kv_pages = torch.empty((s.n_layers, 2, num_pages, self.page_stride), dtype=self.dtype)

    def page_out(self, dev: DevicePageTable, layer: int, src: int, dst: int):
        page = dev.kv_pages[layer][:, src].reshape(2, -1)
        self.kv_pages[layer, :, dst, : page.shape[1]].copy_(page)


def build(settings=None, device="cuda"):
    from .settings import ServeSettings
    settings = settings or ServeSettings()
    dev = DevicePageTable(settings, device=device)
    return dev, HostPageStaging(dev, settings.host_pages)
