from .config import DraftConfig, ModelConfig
from .draft_pool import DraftKVPool
from .target_pool import TargetKVPool


def _kv_kwargs(cfg, device):
    return dict(
        size=cfg.max_tokens,
        head_num=cfg.num_kv_heads,
        head_dim=cfg.head_dim,
        layer_num=cfg.num_layers,
        dtype=cfg.dtype,
        device=device,
    )


def build_pools(model_cfg: ModelConfig, draft_cfg: DraftConfig, device="cuda"):
    target = TargetKVPool(**_kv_kwargs(model_cfg, device))
    draft = DraftKVPool(**_kv_kwargs(draft_cfg, device))
    return target, draft


if __name__ == "__main__":
    t, d = build_pools(ModelConfig(), DraftConfig(), device="meta")
    for p in (t, d):
        k = p.k_buffer[0]
        print(type(p).__name__, len(p.k_buffer), k[0].numel() * k.element_size())
