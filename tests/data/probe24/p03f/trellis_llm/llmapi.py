from typing import Optional

from trellis_llm._basemodel import StrictBaseModel


class Mapping(StrictBaseModel):
    world_size: int = 4
    tp_size: int = 4
    pp_size: int = 1
    rank: int = 0

    def model_post_init(self) -> None:
        if self.tp_size * self.pp_size != self.world_size:
            raise ValueError("world_size must equal tp_size * pp_size")


class PretrainedConfig(StrictBaseModel):
    architecture: str = "LlamaForCausalLM"
    num_hidden_layers: int = 80
    num_attention_heads: int = 64
    num_key_value_heads: int = 8
    hidden_size: int = 8192
    head_dim: Optional[int] = None
    dtype: str = "bfloat16"

    def model_post_init(self) -> None:
        if self.head_dim is None:
            self.head_dim = self.hidden_size // self.num_attention_heads


class KvCacheConfig(StrictBaseModel):
    tokens_per_block: int = 32
    max_tokens: int = 32768
    host_cache_size_tokens: int = 65536
    dtype: str = "fp8"  # "auto" | "fp8"
    enable_block_reuse: bool = True
