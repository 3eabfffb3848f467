from .config import DraftConfig, ModelConfig
from .draft_pool import DraftKVPool
from .target_pool import TargetKVPool


def build_pools(model_cfg: ModelConfig, draft_cfg: DraftConfig, device="cuda"):
    target = TargetKVPool(size=model_cfg.max_tokens, head_num=model_cfg.num_kv_heads, head_dim=model_cfg.head_dim, layer_num=model_cfg.num_layers, dtype=model_cfg.dtype, device=device)
    draft = DraftKVPool(size=model_cfg.max_tokens, head_num=draft_cfg.num_kv_heads, head_dim=draft_cfg.head_dim, layer_num=draft_cfg.num_layers, dtype=draft_cfg.dtype, device=device)
    return target, draft
