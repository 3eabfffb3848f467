from dataclasses import dataclass, field

import torch

KV_DTYPE_MAP = {
    "auto": None,
    "bf16": torch.bfloat16,
    "fp8_e4m3": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}

MLA_ARCHS = {"DeepseekV2ForCausalLM", "DeepseekV3ForCausalLM"}


class ModelConfig:
    def __init__(self, hf_config: dict, dtype: torch.dtype = torch.bfloat16):
        self.hf_config = hf_config
        self.dtype = dtype

    @property
    def is_mla(self) -> bool:
        return any(a in MLA_ARCHS for a in self.hf_config.get("architectures", []))

    @property
    def num_layers(self) -> int:
        return self.hf_config["num_hidden_layers"]

    @property
    def kv_lora_rank(self) -> int:
        return self.hf_config["kv_lora_rank"]

    @property
    def qk_rope_head_dim(self) -> int:
        return self.hf_config["qk_rope_head_dim"]


@dataclass
class ServeArgs:
    kv_cache_dtype: str = "auto"
    max_total_tokens: int = 131072
    page_size: int = 64
    device: str = "cuda"
    hier_cache: bool = True
    hier_host_ratio: float = 3.0
    hier_host_device: str = "cpu"
    extra: dict = field(default_factory=dict)
