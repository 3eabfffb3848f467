"""Engine configs (pytorch-engine style)."""
import json
from dataclasses import dataclass, field

import torch


@dataclass
class CacheConfig:
    """Config of key value cache."""
    max_batches: int
    block_size: int
    num_cpu_blocks: int
    num_gpu_blocks: int
    window_size: int = -1
    cache_max_entry_count: float = 0.8
    max_prefill_token_num: int = 4096
    enable_prefix_caching: bool = False
    quant_policy: int = 0  # 0: no quant, 4: int4 kv, 8: int8 kv


@dataclass
class ModelConfig:
    hidden_size: int
    num_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    bos_token_id: int
    eos_token_id: list
    head_dim: int
    k_head_dim: int = None
    v_head_dim: int = None
    dtype: torch.dtype = torch.bfloat16
    hf_config: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.k_head_dim is None:
            self.k_head_dim = self.head_dim
        if self.v_head_dim is None:
            self.v_head_dim = self.head_dim

    @classmethod
    def from_json(cls, text: str) -> "ModelConfig":
        hf = json.loads(text)
        num_heads = hf["num_attention_heads"]
        if "qk_nope_head_dim" in hf:  # deepseek-v2 style attention, no mla kernel
            k_head_dim = hf["qk_nope_head_dim"] + hf["qk_rope_head_dim"]
            v_head_dim = hf["v_head_dim"]
            head_dim = k_head_dim
        else:
            head_dim = hf.get("head_dim", hf["hidden_size"] // num_heads)
            k_head_dim = v_head_dim = head_dim
        eos = hf.get("eos_token_id", 2)
        return cls(hidden_size=hf["hidden_size"],
                   num_layers=hf["num_hidden_layers"],
                   num_attention_heads=num_heads,
                   num_key_value_heads=hf.get("num_key_value_heads", num_heads),
                   bos_token_id=hf.get("bos_token_id", 1),
                   eos_token_id=eos if isinstance(eos, list) else [eos],
                   head_dim=head_dim,
                   k_head_dim=k_head_dim,
                   v_head_dim=v_head_dim,
                   dtype=getattr(torch, hf.get("torch_dtype", "bfloat16")),
                   hf_config=hf)
