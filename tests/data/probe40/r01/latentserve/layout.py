"""Shared description of one token's latent KV entry."""
from dataclasses import dataclass

import torch

_DTYPES = {
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp8": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass(frozen=True)
class LatentLayout:
    num_layers: int
    kv_lora_rank: int = 512
    rope_dim: int = 64
    dtype_name: str = "bf16"

    @property
    def dtype(self) -> torch.dtype:
        try:
            return _DTYPES[self.dtype_name]
        except KeyError:
            raise ValueError(f"unsupported kv dtype {self.dtype_name!r}") from None

    @property
    def token_width(self) -> int:
        # compressed kv (nope part) followed by the decoupled rope key
        return self.kv_lora_rank + self.rope_dim

    def bytes_per_token_per_layer(self) -> int:
        return self.token_width * self.dtype.itemsize

    def bytes_per_token(self) -> int:
        return self.bytes_per_token_per_layer() * self.num_layers
