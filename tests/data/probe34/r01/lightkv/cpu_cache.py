"""Paged CPU KV cache used to reuse prompt prefixes across requests."""
import torch


class CpuKvCache:
    """Host-side page store.

    Pages hold ``token_page_size`` tokens for every layer so one page can be
    restored into the GPU memory manager with a single gather per layer.
    """

    def __init__(self, page_num, token_page_size, layer_num, head_num, head_dim,
                 dtype=torch.float16, device="cpu", pin_memory=False):
        self.page_num = page_num
        self.token_page_size = token_page_size
        self.layer_num = layer_num
        self.kv_buffer = torch.empty(
            (page_num, layer_num, token_page_size, 2 * head_num, head_dim),
            dtype=dtype,
            device=device,
            pin_memory=pin_memory,
        )
        self.free_pages = list(range(page_num))

    def alloc_page(self):
        return self.free_pages.pop()

    def offload(self, mem_manager, page_idx, token_indexes):
        """Copy the tokens at ``token_indexes`` of every layer into one page."""
        n = token_indexes.numel()
        for layer in range(self.layer_num):
            self.kv_buffer[page_idx, layer, :n].copy_(
                mem_manager.kv_buffer[layer, token_indexes], non_blocking=True
            )

    def load(self, mem_manager, page_idx, token_indexes):
        n = token_indexes.numel()
        for layer in range(self.layer_num):
            mem_manager.kv_buffer[layer, token_indexes] = self.kv_buffer[page_idx, layer, :n].to(
                mem_manager.kv_buffer.device, non_blocking=True
            )
