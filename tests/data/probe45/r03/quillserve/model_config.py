import torch

_TORCH_DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
}


class HFModelConfig:
    """Thin wrapper over the HF config.json dict."""

    def __init__(self, hf: dict, tp_size: int = 1):
        self.hf = hf
        self.tp_size = tp_size

    @property
    def num_hidden_layers(self):
        return self.hf["num_hidden_layers"]

    @property
    def num_attention_heads(self):
        return self.hf["num_attention_heads"]

    @property
    def hidden_size(self):
        return self.hf["hidden_size"]

    @property
    def num_key_value_heads(self):
        return self.hf.get("num_key_value_heads", self.num_attention_heads)

    @property
    def head_dim(self):
        # Gemma-style configs carry an explicit head_dim that is not
        # hidden_size / num_attention_heads.
        return self.hf.get("head_dim") or self.hidden_size // self.num_attention_heads

    @property
    def dtype(self):
        return _TORCH_DTYPES[self.hf.get("torch_dtype", "bfloat16")]

    def kv_heads_per_rank(self):
        return max(1, self.num_key_value_heads // self.tp_size)
