from dataclasses import dataclass
from enum import Enum

import torch


class AttnArch(Enum):
    MHA = "mha"
    MLA = "mla"


@dataclass
class DeepseekArch:
    """Subset of a DeepSeek-V3 style config.json that the memory pools care about."""
    num_hidden_layers: int = 61
    num_attention_heads: int = 128
    kv_lora_rank: int = 512
    qk_nope_head_dim: int = 128
    qk_rope_head_dim: int = 64
    v_head_dim: int = 128
    torch_dtype: torch.dtype = torch.bfloat16

    @property
    def attention_arch(self) -> AttnArch:
        return AttnArch.MLA if self.kv_lora_rank else AttnArch.MHA


@dataclass
class ServerArgs:
    page_size: int = 64
    max_total_tokens: int = 131072
    kv_cache_dtype: str = "auto"
    disaggregation_mode: str = "prefill"
    decode_prealloc_tokens: int = 32768
