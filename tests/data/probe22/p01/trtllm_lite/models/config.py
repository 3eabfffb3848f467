"""Minimal PretrainedConfig in the style of tensorrt_llm.models.modeling_utils."""
from typing import List, Optional, Union


class PretrainedConfig:
    architecture: str = "LlamaForCausalLM"

    def __init__(self,
                 num_hidden_layers: int,
                 num_attention_heads: int,
                 hidden_size: int,
                 num_key_value_heads: Optional[Union[int, List[int]]] = None,
                 head_size: Optional[int] = None,
                 dtype: str = "bfloat16",
                 kv_cache_quant_algo: Optional[str] = None,
                 **kwargs):
        self.num_hidden_layers = num_hidden_layers
        self.num_attention_heads = num_attention_heads
        self.hidden_size = hidden_size
        if num_key_value_heads is None:
            num_key_value_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_size = head_size or hidden_size // num_attention_heads
        self.dtype = dtype
        self.kv_cache_quant_algo = kv_cache_quant_algo
        for k, v in kwargs.items():
            setattr(self, k, v)

    @classmethod
    def from_dict(cls, config: dict) -> "PretrainedConfig":
        config = dict(config)
        quant = config.pop("quantization", {}) or {}
        return cls(kv_cache_quant_algo=quant.get("kv_cache_quant_algo"), **config)

    def num_kv_heads_per_layer(self) -> List[int]:
        if isinstance(self.num_key_value_heads, int):
            return [self.num_key_value_heads] * self.num_hidden_layers
        assert len(self.num_key_value_heads) == self.num_hidden_layers
        return list(self.num_key_value_heads)

    @property
    def kv_dtype(self) -> str:
        if self.kv_cache_quant_algo == "FP8":
            return "fp8"
        if self.kv_cache_quant_algo == "INT8":
            return "int8"
        return self.dtype
