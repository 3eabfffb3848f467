import torch

from mlcish.config import KVCacheConfig, ModelConfig
from mlcish.kv.shape_utils import kv_page_shapes


class SplitHeadPagedKV:
    """Paged KV with separate K ([.., qk_head_dim]) and V ([.., v_head_dim]) stores,
    each a single tensor with a leading layer axis."""

    def __init__(self, model: ModelConfig, kv: KVCacheConfig, device="cuda"):
        self.num_layers = model.num_hidden_layers
        self.num_pages = kv.max_num_pages
        self.page_size = kv.page_size
        k_shape, v_shape = kv_page_shapes(model, kv)
        self.k_pages = torch.zeros((self.num_layers,) + k_shape, dtype=model.torch_dtype,
                                   device=device)
        self.v_pages = torch.zeros((self.num_layers,) + v_shape, dtype=model.torch_dtype,
                                   device=device)

    def layer(self, i: int):
        return self.k_pages[i], self.v_pages[i]
