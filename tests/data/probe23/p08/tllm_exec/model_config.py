from dataclasses import dataclass

from tllm_exec.bindings import DataType

LLAMA31_70B_FP8 = {
    "architecture": "LlamaForCausalLM",
    "dtype": "bfloat16",
    "num_hidden_layers": 80,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "hidden_size": 8192,
    "head_size": 128,
    "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": "FP8"},
}


@dataclass
class ModelConfig:
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_size: int
    dtype: DataType
    kv_cache_dtype: DataType

    @classmethod
    def from_pretrained_config(cls, cfg: dict = None) -> "ModelConfig":
        cfg = cfg or LLAMA31_70B_FP8
        quant = cfg.get("quantization", {})
        dtype = DataType(cfg["dtype"])
        kv_dtype = DataType.FP8 if quant.get("kv_cache_quant_algo") == "FP8" else dtype
        return cls(num_layers=cfg["num_hidden_layers"],
                   num_heads=cfg["num_attention_heads"],
                   num_kv_heads=cfg.get("num_key_value_heads",
                                        cfg["num_attention_heads"]),
                   head_size=cfg.get("head_size",
                                     cfg["hidden_size"] // cfg["num_attention_heads"]),
                   dtype=dtype, kv_cache_dtype=kv_dtype)
