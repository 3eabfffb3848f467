"""Host copy of evicted pages, kept so long prompts can be re-attached."""

import torch


class HostPageMirror:
    def __init__(self, card, num_pages, page_size=32, device="cpu"):
        self.num_pages = num_pages
        self.page_size = page_size
        pin = torch.device(device).type == "cpu" and torch.cuda.is_available()
        template = torch.empty(0, dtype=card.torch_dtype, device=device)
        shape = (card.num_layers, num_pages, page_size,
                 card.num_key_value_heads, card.head_dim)
        self.key_pages = template.new_empty(shape, pin_memory=pin)
        self.value_pages = template.new_empty(shape, pin_memory=pin)
        self.table = {}
        self._next = 0

    def evict(self, token_hash, cache, page):
        host_page = self._next % self.num_pages
        self._next += 1
        self.key_pages[:, host_page].copy_(cache.key_pages[:, page], non_blocking=True)
        self.value_pages[:, host_page].copy_(cache.value_pages[:, page], non_blocking=True)
        self.table[token_hash] = host_page

    def reattach(self, token_hash, cache, page):
        host_page = self.table.get(token_hash)
        if host_page is None:
            return False
        cache.key_pages[:, page].copy_(self.key_pages[:, host_page], non_blocking=True)
        cache.value_pages[:, page].copy_(self.value_pages[:, host_page], non_blocking=True)
        return True
