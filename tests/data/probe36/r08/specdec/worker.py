from .draft_cache import DraftKVCache
from .hparams import HParams
from .target_cache import TargetKVCache


def spec_decode_pools(device: str = "cuda", tp_size: int = 4, num_entries: int = 180_000):
    hp = HParams()
    target = TargetKVCache.from_hparams(hp, num_entries, tp_size, device=device)
    draft = DraftKVCache(hp, num_entries, tp_size, n_layer=1, device=device)
    return target, draft
