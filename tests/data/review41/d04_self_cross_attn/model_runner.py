import torch
from caches import SelfAttnKVPool, CrossAttnKVPool


def init_mllama_cache(cfg, size, encoder_size, kv_cache_dtype, device="cuda"):
    self_attn = SelfAttnKVPool(size, cfg.num_key_value_heads, cfg.head_dim,
                               cfg.num_hidden_layers, kv_cache_dtype, device)
    # cross-attention K/V stay in the model dtype: computed once, never quantized
    cross_attn = CrossAttnKVPool(encoder_size, cfg.num_key_value_heads, cfg.head_dim,
                                 len(cfg.cross_attention_layers), torch.bfloat16, device)
    return self_attn, cross_attn
