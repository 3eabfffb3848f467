from dataclasses import dataclass


@dataclass
class WrenModelConfig:
    num_layers: int = 32
    num_kv_heads: int = 16
    head_dim: int = 128
    use_mla: bool = True
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    tp_size: int = 4
    max_tokens: int = 100_000
    host_tokens: int = 400_000
    device: str = "cuda"
    host_device: str = "cpu"
