from dataclasses import dataclass, field


@dataclass
class ModelConfig:
    model: str = "meta-llama/Meta-Llama-3-8B-Instruct"
    num_hidden_layers: int = 32
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    hidden_size: int = 4096
    dtype: str = "bfloat16"

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads


@dataclass
class CacheConfig:
    block_size: int = 16
    num_gpu_blocks: int = 2048
    swap_space_gib: float = 0.25
    cache_dtype: str = "fp8_e4m3"
    scale_dtype: str = "float32"
    sliding_window: int | None = None
    extra: dict = field(default_factory=dict)
