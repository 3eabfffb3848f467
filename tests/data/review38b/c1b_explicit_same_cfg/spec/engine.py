import torch

from .config import ModelConfig
from .draft_pool import DraftKVPool
from .target_pool import TargetKVPool


def build_pools(cfg: ModelConfig, device="cuda"):
    target = TargetKVPool(cfg.max_tokens, cfg.num_kv_heads, cfg.head_dim, cfg.num_layers, torch.bfloat16, device)
    draft = DraftKVPool(cfg.max_tokens, cfg.draft_kv_heads, cfg.draft_head_dim, cfg.draft_layers, torch.bfloat16, device)
    return target, draft


if __name__ == "__main__":
    t, d = build_pools(ModelConfig(), device="meta")
    for p in (t, d):
        k = p.k_buffer[0]
        print(type(p).__name__, len(p.k_buffer), k[0].numel() * k.element_size())
