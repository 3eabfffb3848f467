import torch

from .memory.host_mirror import LatentHostMirror
from .memory.latent_pool import LatentCachePool


class MLAModelConfig:
    """Subset of a DeepSeek-style HF config that the cache cares about."""

    def __init__(self, num_hidden_layers=61, kv_lora_rank=512,
                 qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128):
        self.num_hidden_layers = num_hidden_layers
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.qk_nope_head_dim = qk_nope_head_dim
        self.v_head_dim = v_head_dim

    def stage_layers(self, pp_rank, pp_size):
        per = (self.num_hidden_layers + pp_size - 1) // pp_size
        start = pp_rank * per
        return start, min(start + per, self.num_hidden_layers)


def init_memory_pool(cfg: MLAModelConfig = None, max_total_tokens=200_000,
                     pp_rank=0, pp_size=1, page_size=64, hicache_ratio=2.0,
                     device="cuda", dtype=torch.bfloat16):
    cfg = cfg or MLAModelConfig()
    start, end = cfg.stage_layers(pp_rank, pp_size)
    max_total_tokens -= max_total_tokens % page_size
    pool = LatentCachePool(
        max_total_tokens, dtype, cfg.kv_lora_rank, cfg.qk_rope_head_dim,
        start_layer=start, end_layer=end, page_size=page_size, device=device)
    host = LatentHostMirror(pool, hicache_ratio) if hicache_ratio > 0 else None
    return pool, host
