"""Page-first KV pool: page p holds every layer's K/V for `page_size` tokens, so one
page is one contiguous transfer descriptor."""
import torch

from .regions import DTYPE_BY_NAME, RegisteredRegion, itemsize


class PageFirstKVPool:

    def __init__(self, spec: dict):
        m, kv, par = spec["model"], spec["kv"], spec["parallel"]
        self.num_layers = m["num_layers"]
        # kv heads are replicated when tp_size exceeds the number of kv heads
        self.local_kv_heads = max(1, m["num_kv_heads"] // par["tp_size"])
        self.head_dim = m["head_dim"]
        self.page_size = kv["page_size"]
        self.num_pages = kv["num_pages"]
        self.dtype = DTYPE_BY_NAME[kv["dtype"]]
        device = spec["backend"]["device"]

        kv_shape = (self.num_pages, self.num_layers, 2, self.page_size, self.local_kv_heads,
                    self.head_dim)
        sc_shape = kv_shape[:-1]
        kv_page = self.num_layers * 2 * self.page_size * self.local_kv_heads * self.head_dim \
            * itemsize(self.dtype)
        sc_page = self.num_layers * 2 * self.page_size * self.local_kv_heads * 4
        self.kv_region = RegisteredRegion("kv", self.num_pages * kv_page, kv_page, device)
        self.scale_region = RegisteredRegion("scale", self.num_pages * sc_page, sc_page, device)
        self.kv_pages = self.kv_region.as_tensor(self.dtype, kv_shape)
        self.kv_scales = self.scale_region.as_tensor(torch.float32, sc_shape)

    def agent_metadata(self) -> dict:
        """What the agent publishes to peers (serialized over the side channel)."""
        return {
            "num_layers": self.num_layers,
            "local_kv_heads": self.local_kv_heads,
            "head_dim": self.head_dim,
            "page_size": self.page_size,
            "kv_dtype": str(self.dtype).replace("torch.", ""),
            "regions": {"kv": self.kv_region.desc.page_bytes,
                        "scale": self.scale_region.desc.page_bytes},
        }
