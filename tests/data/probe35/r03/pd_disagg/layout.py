from typing import NamedTuple, Sequence

import torch

KV_DTYPES = {
    "auto": None,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}
SCALE_DTYPE = torch.float32


class KVLayout(NamedTuple):
    layer_ids: Sequence[int]
    total_kv_heads: int
    head_dim: int
    tp_size: int
    kv_dtype: torch.dtype
    page_size: int

    @property
    def num_layers(self) -> int:
        return len(self.layer_ids)

    @property
    def local_kv_heads(self) -> int:
        # GQA heads are replicated when tp exceeds the number of kv heads.
        return max(1, self.total_kv_heads // self.tp_size)

    @property
    def quantized(self) -> bool:
        return self.kv_dtype.itemsize == 1

    @classmethod
    def from_hf_config(cls, hf: dict, tp_size: int, pp_rank: int = 0, pp_size: int = 1,
                       kv_cache_dtype: str = "auto", page_size: int = 32):
        n = hf["num_hidden_layers"]
        per_stage = n // pp_size
        layer_ids = range(pp_rank * per_stage, (pp_rank + 1) * per_stage)
        dtype = KV_DTYPES[kv_cache_dtype] or getattr(torch, hf["torch_dtype"])
        head_dim = hf.get("head_dim") or hf["hidden_size"] // hf["num_attention_heads"]
        return cls(tuple(layer_ids), hf["num_key_value_heads"], head_dim, tp_size,
                   dtype, page_size)


def token_bytes(layout: KVLayout) -> int:
    return layout.local_kv_heads * layout.head_dim * layout.kv_dtype.itemsize


def scale_bytes(layout: KVLayout) -> int:
    return layout.local_kv_heads * SCALE_DTYPE.itemsize
