"""Pydantic-flavoured config classes (no pydantic dependency on the workers)."""
from typing import Any, Dict, Optional


class BaseConfig:
    """Tiny stand-in for pydantic.BaseModel: typed fields, defaults, validation."""

    def __init__(self, **data: Any):
        for name in self.__annotations__:
            if name in data:
                value = data.pop(name)
            elif hasattr(type(self), name):
                value = getattr(type(self), name)
            else:
                raise TypeError(f"{type(self).__name__}: missing field {name!r}")
            setattr(self, name, value)
        if data:
            raise TypeError(f"{type(self).__name__}: unknown fields {sorted(data)}")
        self.validate()

    @classmethod
    def model_validate(cls, obj: Dict[str, Any]):
        return cls(**dict(obj))

    def validate(self) -> None:
        pass


class ParallelConfig(BaseConfig):
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1


class CacheConfig(BaseConfig):
    block_size: int = 16
    gpu_memory_utilization: float = 0.9
    swap_space: float = 4  # GiB
    cache_dtype: str = "auto"
    num_gpu_blocks: Optional[int] = None
    num_cpu_blocks: Optional[int] = None

    def validate(self) -> None:
        if self.cache_dtype not in ("auto", "fp8", "fp8_e5m2", "fp8_e4m3"):
            raise ValueError(f"Unknown kv cache dtype: {self.cache_dtype}")
        if self.block_size not in (8, 16, 32):
            raise ValueError("block_size must be 8, 16 or 32")

    @property
    def swap_space_bytes(self) -> int:
        return int(self.swap_space * (1 << 30))


class ModelConfig(BaseConfig):
    model: str
    hf_config: Dict[str, Any]
    dtype: str = "bfloat16"

    def get_head_size(self) -> int:
        cfg = self.hf_config
        return cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]

    def get_total_num_kv_heads(self) -> int:
        return self.hf_config.get("num_key_value_heads",
                                  self.hf_config["num_attention_heads"])

    def get_num_kv_heads(self, parallel_config: ParallelConfig) -> int:
        total = self.get_total_num_kv_heads()
        return max(1, total // parallel_config.tensor_parallel_size)

    def get_num_layers(self, parallel_config: ParallelConfig) -> int:
        total = self.hf_config["num_hidden_layers"]
        return total // parallel_config.pipeline_parallel_size
