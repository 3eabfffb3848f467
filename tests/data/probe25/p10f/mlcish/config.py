from dataclasses import dataclass, fields

import torch


@dataclass
class ModelConfig:
    """DeepSeek-V2-Lite run in non-absorbed ("normal") attention mode."""
    num_hidden_layers: int = 27
    num_attention_heads: int = 16
    num_key_value_heads: int = 16
    qk_nope_head_dim: int = 128
    qk_rope_head_dim: int = 64
    v_head_dim: int = 128
    num_nextn_predict_layers: int = 1
    dtype: str = "float16"

    @classmethod
    def from_dict(cls, d: dict) -> "ModelConfig":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})

    @property
    def qk_head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def torch_dtype(self) -> torch.dtype:
        return getattr(torch, self.dtype)


@dataclass
class KVCacheConfig:
    page_size: int = 16
    max_num_pages: int = 8192
    tensor_parallel_shards: int = 1
