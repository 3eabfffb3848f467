"""Server settings: class-level constants, overridable through EXL2_* env vars."""
import json
import os


def _env(name, default, cast=int):
    return cast(os.environ.get(f"EXL2_{name}", default))


class ServeConfig:
    MODEL_DIR = os.environ.get("EXL2_MODEL_DIR", "/models/Meta-Llama-3-8B-Instruct-4.0bpw-exl2")
    MAX_SEQ_LEN = _env("MAX_SEQ_LEN", 8192)
    BATCH_SIZE = _env("BATCH_SIZE", 4)
    SWAP_SEQS = _env("SWAP_SEQS", 16)
    CACHE_MODE = _env("CACHE_MODE", "Q4", str)
    DEVICE = _env("DEVICE", "cuda:0", str)
    SWAP_DEVICE = _env("SWAP_DEVICE", "cpu", str)


# config.json of the quantised checkpoint (kept inline for the test image)
LLAMA3_8B_CONFIG = """{
  "hidden_size": 4096, "intermediate_size": 14336,
  "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 8, "max_position_embeddings": 8192,
  "rope_theta": 500000.0, "vocab_size": 128256
}"""


class ExLlamaV2Config:
    def __init__(self, model_dir=None):
        self.model_dir = model_dir or ServeConfig.MODEL_DIR
        self.max_seq_len = ServeConfig.MAX_SEQ_LEN

    def prepare(self, config_text: str = LLAMA3_8B_CONFIG):
        c = json.loads(config_text)
        self.hidden_size = c["hidden_size"]
        self.num_attention_heads = c["num_attention_heads"]
        self.num_key_value_heads = c.get("num_key_value_heads", self.num_attention_heads)
        self.num_hidden_layers = c["num_hidden_layers"]
        self.head_dim = c.get("head_dim", self.hidden_size // self.num_attention_heads)
        return self
