from dataclasses import dataclass

import torch

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "fp8": torch.float8_e4m3fn}


@dataclass(frozen=True)
class LatentLayout:
    num_layers: int
    kv_lora_rank: int
    qk_rope_head_dim: int
    dtype: torch.dtype

    @classmethod
    def from_model(cls, m):
        return cls(m.num_hidden_layers, m.kv_lora_rank, m.qk_rope_head_dim, _DTYPES[m.torch_dtype])

    @property
    def width(self) -> int:
        """Cached row = compressed latent c_kv followed by the shared rope key."""
        return self.kv_lora_rank + self.qk_rope_head_dim

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    def token_bytes(self) -> int:
        return self.num_layers * self.width * self.itemsize
