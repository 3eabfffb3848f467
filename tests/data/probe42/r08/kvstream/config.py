from dataclasses import dataclass


@dataclass
class StreamConfig:
    num_layers: int = 40
    num_kv_heads: int = 8
    head_dim: int = 128
    page_size: int = 64
    num_pages: int = 1024
    send_pages: int = 128
    kv_quant: str = "fp8"
    device: str = "cuda"
    send_device: str = "cuda"
