from dataclasses import dataclass


class DeepseekV32Config:
    """HF-config-like object; class attributes are the checkpoint defaults."""
    architectures = ["DeepseekV32ForCausalLM"]
    hidden_size = 7168
    num_hidden_layers = 8
    num_attention_heads = 128
    kv_lora_rank = 512
    q_lora_rank = 1536
    qk_nope_head_dim = 128
    qk_rope_head_dim = 64
    v_head_dim = 128
    index_head_dim = 128
    index_n_heads = 64
    index_topk = 2048
    torch_dtype = "bfloat16"

    def __init__(self, **overrides):
        for k, v in overrides.items():
            if not hasattr(type(self), k):
                raise AttributeError(f"unknown config attribute {k}")
            setattr(self, k, v)


@dataclass
class ServerArgs:
    model_path: str = "deepseek-ai/DeepSeek-V3.2-Exp"
    kv_cache_dtype: str = "fp8_e4m3"
    page_size: int = 64
    max_total_num_tokens: int = 262144
    disaggregation_mode: str = "prefill"
    disaggregation_transfer_backend: str = "mooncake"
    staging_buffer_mb: int = 512
    device: str = "cuda"
    staging_device: str = "cpu"
