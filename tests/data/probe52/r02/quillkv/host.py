"""Host RAM mirror for SparseLatentStore pages."""
import torch

from .shape import Shape


class LatentHostMirror:
    def __init__(self, store, ratio: float = 2.0, device="cpu"):
        self.page_size = store.page_size
        self.num_pages = int(store.num_pages * ratio)
        slots = self.num_pages * self.page_size
        self.fields = {}
        for name, fmt in store.formats.items():
            row = Shape(fmt.bytes_per_token())
            self.fields[name] = [
                torch.empty(tuple(slots * row), dtype=torch.uint8, device=device)
                for _ in range(store.num_layers)
            ]
        self.packed_kv = self.fields["packed_kv"]
        self.indexer_k = self.fields["indexer_k"]

    def token_bytes(self) -> int:
        return sum(bufs[0].shape[1] * len(bufs) for bufs in self.fields.values())
