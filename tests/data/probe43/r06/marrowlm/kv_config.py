import torch

from .schema import Schema


class QuantCacheConfig(Schema):
    layers: int = 6
    kv_heads: int = 16
    tp: int = 2
    head_dim: int = 192
    quant_dtype: str = "float8_e4m3fn"
    quant_block: int = 128
    device_tokens: int = 2048
    host_tokens: int = 8192
    device: str = "cuda"
    host_device: str = "cpu"

    def validate(self):
        if self.kv_heads % self.tp:
            raise ValueError("kv_heads must divide evenly across tp ranks")

    @property
    def local_kv_heads(self) -> int:
        return self.kv_heads // self.tp

    @property
    def qdtype(self) -> torch.dtype:
        return getattr(torch, self.quant_dtype)
