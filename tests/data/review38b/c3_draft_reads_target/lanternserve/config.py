from dataclasses import dataclass, field


@dataclass
class ServeConfig:
    hidden_size: int = 4096
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    num_hidden_layers: int = 24
    tp_size: int = 2
    kv_dtype: str = "bfloat16"
    max_tokens: int = 16384
    page_size: int = 16
    host_ratio: float = 2.0
    device: str = "cuda"
    host_device: str = "cpu"

    # derived
    head_dim: int = field(init=False)
    kv_heads_per_rank: int = field(init=False)

    def __post_init__(self):
        self.head_dim = self.hidden_size // self.num_attention_heads
        # replicate kv heads when tp exceeds the number of kv heads
        self.kv_heads_per_rank = max(1, self.num_key_value_heads // self.tp_size)
