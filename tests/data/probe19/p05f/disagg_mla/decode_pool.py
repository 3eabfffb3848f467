import torch

from .layout import indexer_row_bytes, latent_row_bytes


class DecodeLatentPool:
    def __init__(self, s, device="cuda"):
        self.num_pages = s.decode_pages
        self.page_size = s.page_size
        self.depth = s.num_hidden_layers
        row = latent_row_bytes(s)
        self.latent = [
            torch.zeros((self.num_pages, self.page_size, row), dtype=torch.uint8, device=device)
            for _ in range(self.depth)
        ]
        self.index_k = None
        if s.enable_indexer:
            self.index_k = [
                torch.zeros((self.num_pages, self.page_size * indexer_row_bytes(s)),
                            dtype=torch.uint8, device=device)
                for _ in range(self.depth)
            ]

    def page_descriptors(self, page_ids):
        return [(layer, p) for layer in range(self.depth) for p in page_ids]
