from dataclasses import dataclass

import torch


@dataclass
class KVQuantConfig:
    """fp8 KV with per-group fp32 scales along head_dim."""

    enabled: bool = True
    group_size: int = 64
    payload_dtype: torch.dtype = torch.uint8
    scale_dtype: torch.dtype = torch.float32


@dataclass
class EngineConfig:
    num_layers: int
    num_kv_heads: int
    head_dim: int
    tp_size: int = 1
    gpu_tokens: int = 262144
    host_tokens: int = 1048576
    device: str = "cuda"
    host_device: str = "cpu"

    @classmethod
    def from_hf(cls, hf: dict, **kw):
        return cls(
            num_layers=hf["num_hidden_layers"],
            num_kv_heads=hf["num_key_value_heads"],
            head_dim=hf["hidden_size"] // hf["num_attention_heads"],
            **kw,
        )

    @property
    def local_kv_heads(self):
        return max(1, self.num_kv_heads // self.tp_size)
