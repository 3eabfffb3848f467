import json


class ExLlamaV2Config:
    # defaults that may be overridden after prepare()
    max_seq_len: int = 2048
    max_batch_size: int = 1
    max_input_len: int = 2048
    max_attention_size: int = 2048 ** 2
    scale_pos_emb: float = 1.0
    no_flash_attn: bool = False

    def __init__(self, model_dir: str = None):
        self.model_dir = model_dir
        self.arch = None
        self.num_hidden_layers = None
        self.num_attention_heads = None
        self.num_key_value_heads = None
        self.num_key_value_groups = None
        self.hidden_size = None
        self.head_dim = None

    def prepare(self, config_json: str = None):
        if config_json is None:
            with open(f"{self.model_dir}/config.json", encoding="utf8") as f:
                config_json = f.read()
        read_config = json.loads(config_json)
        self.arch = read_config["architectures"][0]
        self.hidden_size = read_config["hidden_size"]
        self.num_hidden_layers = read_config["num_hidden_layers"]
        self.num_attention_heads = read_config["num_attention_heads"]
        self.num_key_value_heads = read_config.get("num_key_value_heads",
                                                   self.num_attention_heads)
        self.num_key_value_groups = self.num_attention_heads // self.num_key_value_heads
        self.head_dim = read_config.get("head_dim",
                                        self.hidden_size // self.num_attention_heads)
        self.max_seq_len = read_config.get("max_position_embeddings", self.max_seq_len)
