from dataclasses import dataclass


@dataclass
class ServerArgs:
    model_path: str = "deepseek-ai/DeepSeek-V3.2-Exp"
    device: str = "cuda"
    kv_cache_dtype: str = "fp8_e4m3"
    page_size: int = 64
    max_total_tokens: int = 400_000
    enable_hierarchical_cache: bool = True
    hicache_ratio: float = 2.0
    hicache_mem_layout: str = "page_first"
    hicache_device: str = "cpu"
