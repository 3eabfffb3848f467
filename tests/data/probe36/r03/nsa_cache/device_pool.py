from typing import List, Tuple

import torch

from .geometry import SparseMLAConfig


class SparseMLASlotPool:
    """Latent KV plus the fp8 indexer keys used by the sparse top-k selector.

    index_k is paged: each page holds page_size fp8 keys followed by
    page_size fp32 dequant scales (one per quant block of the key).
    """

    quant_block_size = 128

    def __init__(
        self,
        cfg: SparseMLAConfig,
        num_slots: int,
        page_size: int,
        layer_range: Tuple[int, int],
        device: str,
    ):
        self.num_slots = num_slots
        self.page_size = page_size
        self.layer_range = layer_range
        self.start_layer, self.end_layer = layer_range
        self.num_layers = self.end_layer - self.start_layer
        self.dtype = cfg.torch_dtype
        self.latent_dim = cfg.kv_lora_rank + cfg.qk_rope_head_dim
        self.index_head_dim = cfg.index_head_dim
        self.device = device
        self.num_pages = num_slots // page_size + 1
        self._alloc()

    @property
    def padded_slots(self) -> int:
        return self.num_pages * self.page_size

    def _alloc(self):
        self.kv: List[torch.Tensor] = []
        self.index_k: List[torch.Tensor] = []
        scale_bytes = self.index_head_dim // self.quant_block_size * 4
        page_bytes = self.page_size * (self.index_head_dim + scale_bytes)
        for _ in range(self.start_layer, self.end_layer):
            self.kv.append(
                torch.zeros((self.padded_slots, 1, self.latent_dim), dtype=self.dtype, device=self.device)
            )
            self.index_k.append(
                torch.zeros((self.num_pages, page_bytes), dtype=torch.uint8, device=self.device)
            )

    def layer_kv(self, layer_id: int) -> torch.Tensor:
        return self.kv[layer_id - self.start_layer]

    def layer_index_k(self, layer_id: int) -> torch.Tensor:
        return self.index_k[layer_id - self.start_layer]
