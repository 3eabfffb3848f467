"""Minimal PretrainedConfig look-alike so the cache code can be used without
pulling in transformers."""
import torch


class PretrainedConfig:
    model_type = ""

    def __init__(self, **kwargs):
        self.torch_dtype = kwargs.pop("torch_dtype", "float32")
        for k, v in kwargs.items():
            setattr(self, k, v)

    def get_text_config(self):
        return self

    @property
    def dtype(self) -> torch.dtype:
        return getattr(torch, self.torch_dtype) if isinstance(
            self.torch_dtype, str) else self.torch_dtype


class GemmaConfig(PretrainedConfig):
    model_type = "gemma"

    def __init__(self, vocab_size=256000, hidden_size=3072, intermediate_size=24576,
                 num_hidden_layers=28, num_attention_heads=16,
                 num_key_value_heads=16, head_dim=256,
                 max_position_embeddings=8192, torch_dtype="bfloat16", **kwargs):
        super().__init__(torch_dtype=torch_dtype, **kwargs)
        self.vocab_size = vocab_size
        self.hidden_size = hidden_size
        self.intermediate_size = intermediate_size
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_dim = head_dim
        self.max_position_embeddings = max_position_embeddings
