from dataclasses import dataclass

import torch

_DTYPE_NAMES = {
    "bf16": torch.bfloat16,
    "bfloat16": torch.bfloat16,
    "fp16": torch.float16,
    "float16": torch.float16,
    "half": torch.float16,
    "fp32": torch.float32,
    "float32": torch.float32,
}


@dataclass
class ModelArch:
    num_layers: int
    num_heads: int
    num_kv_heads: int
    hidden_size: int
    head_dim: int
    torch_dtype: str = "bfloat16"

    @classmethod
    def from_hf(cls, hf: dict) -> "ModelArch":
        heads = hf["num_attention_heads"]
        return cls(
            num_layers=hf["num_hidden_layers"],
            num_heads=heads,
            num_kv_heads=hf.get("num_key_value_heads", heads),
            hidden_size=hf["hidden_size"],
            head_dim=hf.get("head_dim") or hf["hidden_size"] // heads,
            torch_dtype=hf.get("torch_dtype", "bfloat16"),
        )

    def kv_heads_per_rank(self, tp_size: int) -> int:
        # replicate kv heads when tp > num_kv_heads
        return max(1, self.num_kv_heads // tp_size)


@dataclass
class ServerConfig:
    tp_size: int = 1
    kv_cache_dtype: str = "auto"
    max_total_tokens: int = 262144
    page_size: int = 16
    hicache_ratio: float = 2.0
    device: str = "cuda"
    host_device: str = "cpu"


def resolve_kv_dtype(kv_cache_dtype: str, model_dtype: str) -> torch.dtype:
    if kv_cache_dtype == "auto":
        return _DTYPE_NAMES[model_dtype]
    return _DTYPE_NAMES[kv_cache_dtype]
