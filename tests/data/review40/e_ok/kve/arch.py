from dataclasses import dataclass


@dataclass
class HybridArch:
    num_hidden_layers: int
    num_swa_layers: int
    num_kv_heads: int
    head_dim: int
    swa_head_dim: int
