from dataclasses import dataclass, field


@dataclass
class ModelShape:
    num_hidden_layers: int = 27
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    qk_nope_head_dim: int = 128
    torch_dtype: str = "bfloat16"


@dataclass
class CacheConfig:
    page_size: int = 64
    num_pages: int = 1024
    swap_pages: int = 4096
    device: str = "cuda"
    swap_device: str = "cpu"


@dataclass
class LatticeConfig:
    model: ModelShape = field(default_factory=ModelShape)
    cache: CacheConfig = field(default_factory=CacheConfig)
