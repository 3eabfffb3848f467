import json


class ModelConfig:
    """Populated from config.json next to the weights."""

    hidden_size = 5120
    num_attention_heads = 40
    num_key_value_heads = 8
    num_hidden_layers = 48
    head_dim = 128
    max_seq_len = 16384

    # quantised-cache format options
    cache_bits = 4
    q_group_size = 64

    def __init__(self, config_json: str = None) -> None:
        if config_json:
            for k, v in json.loads(config_json).items():
                setattr(self, k, v)

    @property
    def kv_width(self) -> int:
        """Channels per token per layer for K (or V) across all KV heads."""
        return self.num_key_value_heads * self.head_dim

    @property
    def packed_width(self) -> int:
        return self.kv_width * self.cache_bits // 8

    @property
    def groups_per_token(self) -> int:
        return self.kv_width // self.q_group_size
