"""Subset of the model config.json needed to size caches."""

from dataclasses import dataclass


@dataclass
class ModelConfig:
    hidden_size: int = 4096
    num_attention_heads: int = 32
    num_key_value_heads: int = 8
    num_hidden_layers: int = 32
    max_seq_len: int = 8192
    q_group_size: int = 32

    @property
    def head_dim(self):
        return self.hidden_size // self.num_attention_heads

    @property
    def gqa_ratio(self):
        return self.num_attention_heads // self.num_key_value_heads
