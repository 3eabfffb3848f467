from dataclasses import dataclass

import torch

STR_DTYPE_TO_TORCH_DTYPE = {
    "half": torch.float16,
    "bfloat16": torch.bfloat16,
    "fp8": torch.float8_e4m3fn,
    "fp8_e5m2": torch.float8_e5m2,
}


@dataclass
class CacheConfig:
    block_size: int = 16
    cache_dtype: str = "auto"
    swap_space_gib: float = 4.0


class ModelConfig:
    def __init__(self, hf_config, dtype: torch.dtype = torch.bfloat16):
        self.hf_config = hf_config
        self.dtype = dtype

    def get_num_layers(self) -> int:
        return self.hf_config.num_hidden_layers

    def get_num_kv_heads(self) -> int:
        return self.hf_config.num_key_value_heads

    def get_head_size(self) -> int:
        return self.hf_config.hidden_size // self.hf_config.num_attention_heads
