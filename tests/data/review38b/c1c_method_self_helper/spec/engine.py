from .config import DraftConfig, ModelConfig
from .draft_pool import DraftKVPool
from .target_pool import TargetKVPool


class SpecEngine:
    def __init__(self, model_cfg: ModelConfig, draft_cfg: DraftConfig):
        self.model_cfg = model_cfg
        self.draft_cfg = draft_cfg

    def _kv_kwargs(self, cfg):
        return dict(
            size=cfg.max_tokens,
            head_num=cfg.num_kv_heads,
            head_dim=cfg.head_dim,
            layer_num=cfg.num_layers,
            dtype=cfg.dtype,
            device="meta",
        )

    def init_memory_pools(self):
        self.target_pool = TargetKVPool(**self._kv_kwargs(self.model_cfg))
        self.draft_pool = DraftKVPool(**self._kv_kwargs(self.draft_cfg))


if __name__ == "__main__":
    e = SpecEngine(ModelConfig(), DraftConfig())
    e.init_memory_pools()
    for p in (e.target_pool, e.draft_pool):
        k = p.k_buffer[0]
        print(type(p).__name__, len(p.k_buffer), k[0].numel() * k.element_size())
