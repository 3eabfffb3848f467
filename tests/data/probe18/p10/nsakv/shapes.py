import torch


def latent_row(cfg) -> int:
    return cfg["kv_lora_rank"] + cfg["qk_rope_head_dim"]


def index_row(cfg):
    """(row width, storage dtype) of the indexer-key buffer for one token."""
    d = cfg["index_head_dim"]
    if cfg.get("index_fp8", True):
        # e4m3 payload + one fp32 scale per 128-wide block, stored as raw bytes
        return d + d // 128 * 4, torch.uint8
    return d, torch.bfloat16
