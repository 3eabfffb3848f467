import torch

from .gpu_cache import FlatKVArena
from .layout import kv_row


class PinnedSwapSpace:
    """Preempted sequences are swapped out here instead of being recomputed."""

    def __init__(self, cfg, device="cpu"):
        heads = cfg.dims.num_kv_heads // cfg.tp_size
        elem = torch.empty(0, dtype=cfg.cache_dtype).element_size()
        token_bytes = cfg.dims.num_layers * 2 * heads * cfg.dims.head_dim * elem
        self.num_tokens = int(cfg.swap_space_gb * (1 << 30)) // token_bytes
        pin = device == "cpu" and torch.cuda.is_available()
        self.storage = torch.zeros([cfg.dims.num_layers, 2, self.num_tokens, heads, cfg.dims.head_dim],
                                   dtype=cfg.cache_dtype, device=device, pin_memory=pin)

    def swap_out(self, arena, src_idx, dst_idx):
        self.storage[:, :, dst_idx] = arena.kv[:, :, src_idx].to(self.storage.device)

    def swap_in(self, arena, src_idx, dst_idx):
        arena.kv[:, :, dst_idx] = self.storage[:, :, src_idx].to(arena.kv.device, non_blocking=True)


def create_cache_engine(cfg=None, device="cuda", swap_device="cpu"):
    from .config import OspreyConfig
    cfg = cfg or OspreyConfig()
    assert kv_row(cfg)[0] > 0, "tp_size larger than kv heads"
    return FlatKVArena(cfg, device=device), PinnedSwapSpace(cfg, device=swap_device)
