"""Model description.  We ship a pinned copy of the HF config for the default
deployment so that a node can size its pools before weights are downloaded."""
import json
from dataclasses import dataclass

DEFAULT_MODEL_JSON = """
{
  "architectures": ["LlamaForCausalLM"],
  "model_type": "llama",
  "hidden_size": 4096,
  "intermediate_size": 14336,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "num_hidden_layers": 32,
  "max_position_embeddings": 131072,
  "rope_theta": 500000.0,
  "torch_dtype": "bfloat16",
  "vocab_size": 128256
}
"""


@dataclass(frozen=True)
class ModelCard:
    name: str
    hidden_size: int
    num_heads: int
    num_kv_heads: int
    num_layers: int
    torch_dtype: str
    head_dim: int = 0

    @classmethod
    def from_json(cls, text=None):
        raw = json.loads(text or DEFAULT_MODEL_JSON)
        head_dim = raw.get("head_dim") or raw["hidden_size"] // raw["num_attention_heads"]
        return cls(
            name=raw["architectures"][0],
            hidden_size=raw["hidden_size"],
            num_heads=raw["num_attention_heads"],
            num_kv_heads=raw.get("num_key_value_heads", raw["num_attention_heads"]),
            num_layers=raw["num_hidden_layers"],
            torch_dtype=raw.get("torch_dtype", "float16"),
            head_dim=head_dim,
        )

    def kv_heads_per_rank(self, tp_size):
        if self.num_kv_heads >= tp_size:
            assert self.num_kv_heads % tp_size == 0
            return self.num_kv_heads // tp_size
        # fewer kv heads than ranks: heads are replicated
        return 1
