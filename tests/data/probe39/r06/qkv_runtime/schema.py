"""Typed configuration, decoded from the deployment JSON with msgspec."""

import msgspec
import torch


class QuantKVConfig(msgspec.Struct, frozen=True, kw_only=True):
    num_layers: int = 32
    num_kv_heads: int = 8
    head_dim: int = 128
    # number of consecutive head_dim elements that share one scale
    group_size: int = 32
    scale_dtype: str = "bfloat16"

    @property
    def groups_per_head(self):
        return self.head_dim // self.group_size

    @property
    def torch_scale_dtype(self):
        return {"bfloat16": torch.bfloat16, "float16": torch.float16,
                "float32": torch.float32}[self.scale_dtype]


def load_config(raw: bytes = b"{}") -> QuantKVConfig:
    cfg = msgspec.json.decode(raw, type=QuantKVConfig)
    if cfg.head_dim % cfg.group_size:
        raise ValueError("group_size must divide head_dim")
    return cfg
