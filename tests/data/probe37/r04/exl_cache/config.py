"""Model config as read from config.json (only the fields the cache uses)."""
from typing import Any, Dict, Optional

DEFAULTS: Dict[str, Any] = {
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "hidden_size": 4096,
    "head_dim": None,
    "max_position_embeddings": 8192,
}


class ExConfig:
    def __init__(self, overrides: Optional[Dict[str, Any]] = None):
        values = dict(DEFAULTS)
        values.update(overrides or {})
        self.num_hidden_layers = values["num_hidden_layers"]
        self.num_attention_heads = values["num_attention_heads"]
        self.num_key_value_heads = values["num_key_value_heads"]
        self.hidden_size = values["hidden_size"]
        self.head_dim = values["head_dim"] or self.hidden_size // self.num_attention_heads
        self.max_seq_len = values["max_position_embeddings"]

    def __repr__(self):
        return f"ExConfig(layers={self.num_hidden_layers}, kv_heads={self.num_key_value_heads}, head_dim={self.head_dim})"
