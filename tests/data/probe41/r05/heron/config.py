from dataclasses import dataclass


@dataclass
class HeronConfig:
    num_layers: int = 30
    num_kv_heads: int = 8
    head_dim: int = 128
    tp_size: int = 1
    page_size: int = 16
    num_pages: int = 8192
    # per-(token, head) scales, one fp32 per `scale_group` channels
    scale_group: int = 64
    recv_tokens: int = 16384
    device: str = "cuda"
    recv_device: str = "cpu"
