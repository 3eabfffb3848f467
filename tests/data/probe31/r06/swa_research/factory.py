from typing import Optional, Tuple

from swa_research.cache.rotating import RotatingBufferCache
from swa_research.cache.spill import CPUSpillArea
from swa_research.model_args import ModelArgs


def make_caches(
    args: Optional[ModelArgs] = None,
    device: str = "cuda",
    spill_tokens: int = 256,
) -> Tuple[RotatingBufferCache, CPUSpillArea]:
    """Build the rotating KV buffers and the CPU spill area behind them."""
    args = args or ModelArgs()
    cache = RotatingBufferCache(args, device=device)
    spill = CPUSpillArea(cache, spill_tokens=spill_tokens)
    return cache, spill
