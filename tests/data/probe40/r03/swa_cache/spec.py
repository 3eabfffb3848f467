from typing import NamedTuple, Tuple

import torch


class KVGeometry(NamedTuple):
    num_kv_heads: int
    head_dim: int
    dtype_name: str = "bfloat16"
    tp_size: int = 1

    @property
    def torch_dtype(self) -> torch.dtype:
        dt = getattr(torch, self.dtype_name, None)
        if not isinstance(dt, torch.dtype):
            raise ValueError(f"not a torch dtype: {self.dtype_name}")
        return dt

    @property
    def local_heads(self) -> int:
        if self.num_kv_heads >= self.tp_size:
            return self.num_kv_heads // self.tp_size
        return 1  # replicated kv heads

    def slot_shape(self) -> Tuple[int, int, int]:
        # K and V interleaved in one tensor: [2, heads, head_dim] per token
        return (2, self.local_heads, self.head_dim)
