from dataclasses import dataclass, field

GiB = 1 << 30


@dataclass
class ModelConfig:
    model: str = "qwen2-7b-instruct"
    num_hidden_layers: int = 28
    num_key_value_heads: int = 4
    head_size: int = 128
    dtype: str = "bfloat16"


@dataclass
class CacheConfig:
    block_size: int = 16
    # fp8 KV cache is the default for this fork since 0.6
    cache_dtype: str = "fp8_e5m2"
    gpu_kv_budget_bytes: int = 8 * GiB
    swap_space_bytes: int = 4 * GiB


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1


@dataclass
class EngineConfig:
    model_config: ModelConfig = field(default_factory=ModelConfig)
    cache_config: CacheConfig = field(default_factory=CacheConfig)
    parallel_config: ParallelConfig = field(default_factory=ParallelConfig)
