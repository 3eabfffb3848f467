import torch

from .layout import indexer_row_bytes

# tile width used by the fused rope + fp8 quant kernel on the prefill side
_FP8_TILE = 64


def _latent_row(s) -> int:
    if s.kv_cache_dtype == "bf16":
        return (s.kv_lora_rank + s.qk_rope_head_dim) * 2
    return s.kv_lora_rank + (s.kv_lora_rank // s.quant_tile) * 4 + s.qk_rope_head_dim * 2


class PrefillLatentPool:
    """Prefill-instance pool; pages are shipped to the decode instance verbatim."""

    def __init__(self, s, device="cuda"):
        self.num_pages = s.prefill_pages
        self.page_size = s.page_size
        self.depth = s.num_hidden_layers
        self.latent = [
            torch.zeros((self.num_pages, self.page_size, _latent_row(s)), dtype=torch.uint8,
                        device=device)
            for _ in range(self.depth)
        ]
        self.index_k = None
        if s.enable_indexer:
            self.index_k = [
                torch.zeros((self.num_pages, self.page_size * indexer_row_bytes(s)),
                            dtype=torch.uint8, device=device)
                for _ in range(self.depth)
            ]
