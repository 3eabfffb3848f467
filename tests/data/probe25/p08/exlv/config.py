"""Model dimensions as read from a HF config.json."""

DEFAULT_CONFIG_JSON = {
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "hidden_size": 4096,
    "max_position_embeddings": 8192,
}


class ModelDims:
    def __init__(self, config_json=None):
        cfg = dict(DEFAULT_CONFIG_JSON, **(config_json or {}))
        self.num_hidden_layers = cfg["num_hidden_layers"]
        self.num_attention_heads = cfg["num_attention_heads"]
        self.num_key_value_heads = cfg.get("num_key_value_heads", self.num_attention_heads)
        self.head_dim = cfg.get("head_dim", cfg["hidden_size"] // self.num_attention_heads)
        self.max_seq_len = cfg["max_position_embeddings"]
