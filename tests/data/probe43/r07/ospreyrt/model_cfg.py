from typing import NamedTuple


class AttnSpec(NamedTuple):
    arch: str = "mla"
    n_layer: int = 12
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    n_kv_head: int = 1
    head_dim: int = 576
    kv_dtype: str = "bf16"

    @property
    def mla_token_width(self) -> int:
        return self.kv_lora_rank + self.qk_rope_head_dim


class PagingSpec(NamedTuple):
    page_size: int = 32
    device_pages: int = 96
    host_pages: int = 384
    device: str = "cuda"
    host: str = "cpu"
