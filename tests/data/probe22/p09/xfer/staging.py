"""Host staging area used when the peer is not reachable over GPUDirect."""
import torch

from .regions import RegisteredRegion


class HostStagingRegion:

    def __init__(self, meta: dict, num_pages: int, device: str = "cpu"):
        self.num_pages = num_pages
        self.page_size = meta["page_size"]
        self.num_layers = meta["num_layers"]
        dtype = getattr(torch, meta["kv_dtype"])
        heads, dim = meta["local_kv_heads"], meta["head_dim"]
        elem = torch.empty((), dtype=dtype, device="meta").element_size()
        tok_layer_kv = 2 * heads * dim * elem
        tok_layer_sc = 2 * heads * torch.float32.itemsize
        kv_page = self.num_layers * self.page_size * tok_layer_kv
        sc_page = self.num_layers * self.page_size * tok_layer_sc
        if (kv_page, sc_page) != (meta["regions"]["kv"], meta["regions"]["scale"]):
            raise RuntimeError("peer page geometry mismatch")
        self.kv_region = RegisteredRegion("staging_kv", num_pages * kv_page, kv_page, device)
        self.scale_region = RegisteredRegion("staging_scale", num_pages * sc_page, sc_page,
                                             device)
        shape = (num_pages, self.num_layers, 2, self.page_size, heads, dim)
        self.kv_pages = self.kv_region.as_tensor(dtype, shape)
        self.kv_scales = self.scale_region.as_tensor(torch.float32, shape[:-1])

    @classmethod
    def from_agent_metadata(cls, meta: dict, num_pages: int, device: str = "cpu"):
        return cls(meta, num_pages, device)
