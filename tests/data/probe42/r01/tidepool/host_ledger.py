import torch

from .config import MirrorLayout


class HostLedgerMirror:
    """Host copy of a PagedKVLedger; geometry is taken from the device object."""

    def __init__(self, device_pool, ratio, layout, device="cpu", pin_memory=True):
        self.device_pool = device_pool
        self.dtype = device_pool.dtype
        self.layer_num = len(device_pool.k_buffer)
        # [page_size, heads, dim] of one device page
        self.page_shape = tuple(device_pool.k_buffer[0].shape[1:])
        self.page_size = self.page_shape[0]
        self.num_pages = int(device_pool.num_pages * ratio)
        self.layout = layout if isinstance(layout, MirrorLayout) else MirrorLayout(layout)
        self.device = device
        self.pin_memory = pin_memory
        shape = self.layout.shape(self.layer_num, self.num_pages, self.page_shape)
        self.k_buffer = torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin_memory)
        self.v_buffer = torch.empty(shape, dtype=self.dtype, device=device, pin_memory=pin_memory)

    @property
    def capacity_tokens(self):
        return self.num_pages * self.page_size

    def backup_page(self, layer_id, dev_page, host_page):
        k, v = self.device_pool.get_kv_buffer(layer_id)
        if self.layout is MirrorLayout.LAYER_FIRST:
            self.k_buffer[layer_id, host_page].copy_(k[dev_page])
            self.v_buffer[layer_id, host_page].copy_(v[dev_page])
        else:
            self.k_buffer[host_page, layer_id].copy_(k[dev_page])
            self.v_buffer[host_page, layer_id].copy_(v[dev_page])
