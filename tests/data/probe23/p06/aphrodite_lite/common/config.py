"""Pydantic-flavoured config objects (no pydantic dependency at runtime)."""
from typing import Any, get_type_hints


class ValidationError(ValueError):
    pass


class ConfigModel:
    """Tiny subset of pydantic.BaseModel: typed fields with defaults,
    model_validate() from a dict, and optional `validate_<field>` hooks."""

    def __init__(self, **data: Any):
        hints = get_type_hints(type(self))
        for name, typ in hints.items():
            if name.startswith("_"):
                continue
            if name in data:
                value = data.pop(name)
            elif hasattr(type(self), name):
                value = getattr(type(self), name)
            else:
                raise ValidationError(f"{type(self).__name__}.{name} is required")
            if typ in (int, float, str, bool) and not isinstance(value, typ):
                value = typ(value)
            hook = getattr(self, f"validate_{name}", None)
            if hook is not None:
                value = hook(value)
            object.__setattr__(self, name, value)
        if data:
            raise ValidationError(f"unknown fields: {sorted(data)}")

    @classmethod
    def model_validate(cls, obj: dict):
        return cls(**dict(obj))

    def model_dump(self) -> dict:
        return {k: getattr(self, k) for k in get_type_hints(type(self))}


class ModelConfig(ConfigModel):
    model: str = "mistralai/Mistral-7B-Instruct-v0.3"
    num_hidden_layers: int = 32
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    head_dim: int = 128
    dtype: str = "float16"


class CacheConfig(ConfigModel):
    block_size: int = 16
    cache_dtype: str = "int4"
    kv_quant_group_size: int = 32
    num_gpu_blocks: int = 12000

    def validate_cache_dtype(self, v):
        if v not in ("auto", "fp8", "int8", "int4"):
            raise ValidationError(f"bad cache_dtype {v}")
        return v


class ParallelConfig(ConfigModel):
    tensor_parallel_size: int = 1
    rank: int = 0


class LMCacheConfig(ConfigModel):
    chunk_size: int = 256
    local_device: str = "cpu"
    remote_url: str = ""


class EngineConfig(ConfigModel):
    model: ModelConfig = None
    cache: CacheConfig = None
    parallel: ParallelConfig = None
    lmcache: LMCacheConfig = None
    device: str = "cuda"

    @classmethod
    def model_validate(cls, obj: dict):
        return cls(model=ModelConfig.model_validate(obj.get("model", {})),
                   cache=CacheConfig.model_validate(obj.get("cache", {})),
                   parallel=ParallelConfig.model_validate(obj.get("parallel", {})),
                   lmcache=LMCacheConfig.model_validate(obj.get("lmcache", {})),
                   device=obj.get("device", "cuda"))
