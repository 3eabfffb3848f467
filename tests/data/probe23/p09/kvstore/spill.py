"""NVMe spill tier. Pages are staged in one pinned byte region, K records
first, then V records, and written to disk with O_DIRECT in page order."""
import torch

from kvstore.tiers import register_tier

SCALE_BYTES = 4  # fp32 scale trailing each fp8 K row


@register_tier("spill")
class SpillBay:
    def __init__(self, shelf, conf, device="cpu"):
        self.path = conf.spill.path
        self.bay_pages = conf.spill.bay_pages
        self.depth, self.heads = shelf.depth, shelf.heads
        self.page_tokens, self.head_dim = shelf.page_tokens, shelf.head_dim
        # on-disk record: fp8 K row + scale, raw bf16 V row
        self.k_rec = self.head_dim + SCALE_BYTES
        self.v_rec = self.head_dim * 2
        rows = self.bay_pages * self.depth * self.page_tokens * self.heads
        self.region = torch.empty(rows * (self.k_rec + self.v_rec),
                                  dtype=torch.uint8, device=device)
        geo = (self.bay_pages, self.depth, self.page_tokens, self.heads)
        k_bytes = rows * self.k_rec
        self.k_pages = self.region[:k_bytes].view(*geo, self.k_rec)
        self.v_pages = self.region[k_bytes:].view(torch.bfloat16).view(
            *geo, self.head_dim)

    @property
    def slots(self) -> int:
        return self.bay_pages * self.page_tokens

    def stage(self, shelf, src_pages, bay_pages):  # pragma: no cover
        self.k_pages[bay_pages] = shelf.k_pages[src_pages]
        self.v_pages[bay_pages] = shelf.v_pages[src_pages]
