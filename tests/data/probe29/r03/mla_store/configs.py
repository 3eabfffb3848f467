"""DeepSeek-V2-like HF config subset (tiny defaults for unit tests)."""
import torch


class DeepseekV2Config:
    model_type = "deepseek_v2"

    def __init__(self, **kwargs):
        self.hidden_size = kwargs.pop("hidden_size", 256)
        self.num_hidden_layers = kwargs.pop("num_hidden_layers", 3)
        self.num_attention_heads = kwargs.pop("num_attention_heads", 8)
        self.q_lora_rank = kwargs.pop("q_lora_rank", 96)
        self.kv_lora_rank = kwargs.pop("kv_lora_rank", 64)
        self.qk_nope_head_dim = kwargs.pop("qk_nope_head_dim", 32)
        self.qk_rope_head_dim = kwargs.pop("qk_rope_head_dim", 16)
        self.v_head_dim = kwargs.pop("v_head_dim", 32)
        self.torch_dtype = kwargs.pop("torch_dtype", torch.bfloat16)
        self.__dict__.update(kwargs)
