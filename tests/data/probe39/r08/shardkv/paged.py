"""Device-resident paged KV for the heads owned by this rank."""

import torch


class ShardedPageCache:
    def __init__(self, card, tp, num_pages, page_size=32, device="cuda"):
        self.card = card
        self.tp = tp
        self.num_pages = num_pages
        self.page_size = page_size
        self.local_kv_heads = tp.shard(card.num_key_value_heads)
        proto = torch.empty(0, dtype=card.torch_dtype, device=device)
        shape = (card.num_layers, num_pages, page_size, self.local_kv_heads, card.head_dim)
        self.key_pages = proto.new_empty(shape)
        self.value_pages = proto.new_empty(shape)
        self.free_pages = list(range(num_pages))

    def alloc_pages(self, n):
        if len(self.free_pages) < n:
            return None
        out, self.free_pages = self.free_pages[-n:], self.free_pages[:-n]
        return out

    def pages_for(self, num_tokens):
        return -(-num_tokens // self.page_size)

    def utilization(self):
        return 1.0 - len(self.free_pages) / self.num_pages

    def free(self, pages):
        self.free_pages.extend(pages)

    def slot(self, page, offset):
        return page * self.page_size + offset

    def write(self, layer, page, offset, k, v):
        self.key_pages[layer, page, offset] = k
        self.value_pages[layer, page, offset] = v
