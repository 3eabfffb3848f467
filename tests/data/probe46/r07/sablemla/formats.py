"""KV formats understood by the packed MLA kernels."""
from __future__ import annotations

import enum

import torch

FP8_GROUP = 128


class KVFormat(enum.Enum):
    BF16 = "bf16"
    FP8_BLOCKWISE = "fp8"

    def components(self, kv_lora_rank: int, rope_dim: int) -> list[tuple[tuple[int, ...], torch.dtype]]:
        """(shape, dtype) of each field packed into one token record."""
        if self is KVFormat.FP8_BLOCKWISE:
            return [((kv_lora_rank,), torch.float8_e4m3fn),
                    ((kv_lora_rank // FP8_GROUP,), torch.float32),
                    ((rope_dim,), torch.bfloat16)]
        return [((kv_lora_rank,), torch.bfloat16), ((rope_dim,), torch.bfloat16)]

    def token_bytes(self, kv_lora_rank: int, rope_dim: int) -> int:
        """Closed form of the packed record size, used for host sizing."""
        if self is KVFormat.FP8_BLOCKWISE:
            return kv_lora_rank + 4 * (kv_lora_rank // FP8_GROUP) + 2 * rope_dim
        return 2 * (kv_lora_rank + rope_dim)


FORMAT_BY_NAME: dict[str, KVFormat] = {
    "auto": KVFormat.BF16,
    "bf16": KVFormat.BF16,
    "fp8": KVFormat.FP8_BLOCKWISE,
    "fp8_e4m3": KVFormat.FP8_BLOCKWISE,
}
