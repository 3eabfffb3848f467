import torch

from mlc_serve.kv.registry import PagedKVCacheSpec, register_kv_cache


@register_kv_cache("paged")
class PagedKVCache:
    """Target-model cache: a single tensor with a leading layer dimension."""

    def __init__(self, spec: PagedKVCacheSpec, num_pages: int, device):
        self.spec = spec
        self.num_pages = num_pages
        self.page_size = spec.page_size
        self.num_layers = spec.num_hidden_layers
        self.pages = torch.zeros((self.num_layers,) + spec.page_shape(num_pages),
                                 dtype=spec.torch_dtype, device=device)

    @property
    def capacity(self) -> int:
        return self.num_pages * self.page_size

    def layer_view(self, layer_id: int) -> torch.Tensor:
        return self.pages[layer_id]
