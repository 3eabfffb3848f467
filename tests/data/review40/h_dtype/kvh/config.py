from dataclasses import dataclass


@dataclass
class CacheConfig:
    kv_cache_dtype: str = "auto"
    model_dtype: str = "bfloat16"
    index_dtype: str = "auto"
    draft_dtype: str = "auto"
    scale_dtype: str = "float32"
    page_size: int = 1
