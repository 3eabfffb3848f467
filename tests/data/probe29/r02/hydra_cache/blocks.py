"""Device-side block storage: one tensor [n_layer, 2, tokens, heads_per_rank, d_head]."""
import torch

from .spec import CacheSpec


class DeviceKVBlocks:
    """All layers of K and V in one allocation so a single memset clears it."""

    def __init__(self, spec: CacheSpec, device: str = "cuda"):
        self.spec = spec
        self.device = device
        self.kv_data = torch.zeros(
            spec.n_layer, 2, spec.token_capacity, spec.heads_per_rank, spec.d_head,
            dtype=spec.dtype, device=device,
        )

    def block_slice(self, block_id: int) -> slice:
        bs = self.spec.block_size
        return slice(block_id * bs, (block_id + 1) * bs)

    def read_block(self, layer: int, block_id: int) -> torch.Tensor:
        return self.kv_data[layer, :, self.block_slice(block_id)]

    def write_block(self, layer: int, block_id: int, kv: torch.Tensor) -> None:
        self.kv_data[layer, :, self.block_slice(block_id)].copy_(kv)

    def nbytes(self) -> int:
        return self.kv_data.numel() * self.kv_data.element_size()
