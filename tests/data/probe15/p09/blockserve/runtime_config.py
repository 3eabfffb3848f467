import torch


class RuntimeConfig:
    def __init__(self, hf_config, kv_cache_dtype: str = "auto", tp_size: int = 1):
        self.hf_config = hf_config
        self.kv_cache_dtype = kv_cache_dtype
        self.tp_size = tp_size

    def get_num_layers(self) -> int:
        return self.hf_config.num_hidden_layers

    def get_kv_heads(self) -> int:
        return max(1, self.hf_config.num_key_value_heads // self.tp_size)

    def get_head_dim(self) -> int:
        return self.hf_config.head_dim

    def get_kv_dtype(self) -> torch.dtype:
        if self.kv_cache_dtype == "fp8":
            return torch.float8_e4m3fn
        return self.hf_config.torch_dtype
