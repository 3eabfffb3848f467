"""Device-side store for DeepSeek sparse attention."""
import torch

from .formats import IndexerKeyFormat, PackedLatentFormat


class SparseLatentStore:
    def __init__(self, cfg, num_tokens: int, page_size: int = 64, device="cuda"):
        assert page_size % 64 == 0
        self.page_size = page_size
        self.num_layers = cfg.num_hidden_layers
        self.formats = {
            "packed_kv": PackedLatentFormat(cfg.kv_lora_rank, cfg.qk_rope_head_dim),
            "indexer_k": IndexerKeyFormat(cfg.index_head_dim),
        }
        self.num_pages = -(-num_tokens // page_size) + 1
        slots = self.num_pages * page_size
        self.packed_kv = self._alloc(self.formats["packed_kv"], slots, device)
        self.indexer_k = self._alloc(self.formats["indexer_k"], slots, device)

    def _alloc(self, fmt, slots, device):
        shape = slots * fmt.row()
        return [
            torch.zeros(tuple(shape), dtype=fmt.storage, device=device)
            for _ in range(self.num_layers)
        ]

    def token_bytes(self) -> int:
        return sum(f.bytes_per_token() for f in self.formats.values()) * self.num_layers
