"""Row formats for the packed sparse-MLA cache."""
import abc

import torch

from .shape import Shape


class RowFormat(abc.ABC):
    storage = torch.uint8

    @abc.abstractmethod
    def components(self):
        """Yield (name, elements, dtype) for every field packed in one token row."""

    def bytes_per_token(self) -> int:
        return sum(n * dt.itemsize for _, n, dt in self.components())

    def row(self) -> Shape:
        return Shape(self.bytes_per_token() // self.storage.itemsize)


class PackedLatentFormat(RowFormat):
    """fp8 latent with one fp32 scale per tile, rope kept in bf16."""

    def __init__(self, lora_rank: int, rope_dim: int, tile: int = 128):
        assert lora_rank % tile == 0
        self.lora_rank, self.rope_dim, self.tile = lora_rank, rope_dim, tile

    def components(self):
        yield "nope", self.lora_rank, torch.float8_e4m3fn
        yield "scale", self.lora_rank // self.tile, torch.float32
        yield "rope", self.rope_dim, torch.bfloat16


class IndexerKeyFormat(RowFormat):
    def __init__(self, index_head_dim: int, block: int = 128):
        assert index_head_dim % block == 0
        self.dim, self.block = index_head_dim, block

    def components(self):
        yield "key", self.dim, torch.float8_e4m3fn
        yield "scale", self.dim // self.block, torch.float32
