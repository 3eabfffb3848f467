"""Token geometry for int4 KV (two codes per byte, fp16 scale per group)."""
import torch

INT4_PER_BYTE = 2


def kv_geometry(cfg, tp_size: int, group: int = 64):
    heads = cfg.num_key_value_heads // tp_size
    head_dim = cfg.head_dim if getattr(cfg, "head_dim", None) else cfg.hidden_size // cfg.num_attention_heads
    assert head_dim % group == 0, (head_dim, group)
    return {
        "layers": cfg.num_hidden_layers,
        "codes": torch.Size((heads, head_dim // INT4_PER_BYTE)),
        "scales": torch.Size((heads, head_dim // group)),
        "scale_dtype": torch.float16,
    }
