import torch

from .spec import PoolSpec


class LatentDecodeStore:
    """Receiving side of a P/D transfer; pages must match the prefill layout."""

    def __init__(self, spec: PoolSpec):
        g = spec.geometry
        self.spec = spec
        self.slots = spec.token_slots
        self.latent_dim = g.kv_lora_rank
        self.pe_dim = g.qk_nope_head_dim
        self.compressed = []
        self.positional = []
        for _ in range(g.depth):
            self.compressed.append(self._page_block(self.latent_dim, g.dtype))
            self.positional.append(self._page_block(self.pe_dim, g.dtype))

    def _page_block(self, width, dtype):
        blocks = torch.zeros(
            (self.spec.num_pages, self.spec.page_tokens, 1, width),
            dtype=dtype,
            device=self.spec.device,
        )
        return blocks.view(-1, 1, width)

    def receive_descriptors(self, layer):
        return [
            (t.data_ptr(), t.nbytes, t[0].nbytes)
            for t in (self.compressed[layer], self.positional[layer])
        ]
