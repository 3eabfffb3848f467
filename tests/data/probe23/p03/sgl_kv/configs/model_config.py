import enum
import json

DEEPSEEK_V32_CONFIG_JSON = """{
  "architectures": ["DeepseekV32ForCausalLM"],
  "hidden_size": 7168,
  "num_hidden_layers": 61,
  "num_attention_heads": 128,
  "num_key_value_heads": 128,
  "kv_lora_rank": 512,
  "q_lora_rank": 1536,
  "qk_nope_head_dim": 128,
  "qk_rope_head_dim": 64,
  "v_head_dim": 128,
  "index_head_dim": 128,
  "index_n_heads": 64,
  "index_topk": 2048,
  "torch_dtype": "bfloat16"
}"""


class AttentionArch(enum.Enum):
    MLA = enum.auto()
    MHA = enum.auto()


class ModelConfig:
    def __init__(self, hf_config_json: str = DEEPSEEK_V32_CONFIG_JSON):
        self.hf_config = json.loads(hf_config_json)
        c = self.hf_config
        self.num_hidden_layers = c["num_hidden_layers"]
        arch = c["architectures"][0]
        if "Deepseek" in arch and "kv_lora_rank" in c:
            self.attention_arch = AttentionArch.MLA
            self.kv_lora_rank = c["kv_lora_rank"]
            self.qk_rope_head_dim = c["qk_rope_head_dim"]
            self.head_dim = self.kv_lora_rank + self.qk_rope_head_dim
        else:
            self.attention_arch = AttentionArch.MHA
            self.head_dim = c["hidden_size"] // c["num_attention_heads"]
        self.is_nsa = arch == "DeepseekV32ForCausalLM"
        self.index_head_dim = c.get("index_head_dim", 128)
