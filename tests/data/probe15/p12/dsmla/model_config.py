from dataclasses import dataclass


@dataclass
class MLAConfig:
    num_hidden_layers: int = 61
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    quant_block: int = 128
