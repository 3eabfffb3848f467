import torch

from .memory_pool import TokenKVBuffers
from .transfer import TransferRegistry


class KVTransferSetup:
    def __init__(self, pool: TokenKVBuffers, registry: TransferRegistry):
        self.pool = pool
        self.registry = registry

    @classmethod
    def create(
        cls,
        size: int = 4096,
        page_size: int = 1,
        dtype: torch.dtype = torch.float16,
        head_num: int = 8,
        head_dim: int = 128,
        v_head_dim=None,
        layer_num: int = 4,
        device: str = "cuda",
        registry_device: str = "cpu",
    ) -> "KVTransferSetup":
        pool = TokenKVBuffers(
            size, page_size, dtype, head_num, head_dim, layer_num, device,
            v_head_dim=v_head_dim,
        )
        registry = TransferRegistry(
            num_tokens=size + page_size,
            head_num=head_num,
            head_dim=head_dim,
            v_head_dim=pool.v_head_dim,
            layer_num=layer_num,
            dtype=dtype,
            device=registry_device,
        )
        return cls(pool, registry)
