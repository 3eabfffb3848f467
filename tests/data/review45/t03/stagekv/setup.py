"""Both tiers, built together."""
from .gpu import PagedKV
from .stage import EvictionStage


def build_tiers(args, device="cuda"):
    gpu = PagedKV(args.max_tokens, args.layers, device=device)
    stage = EvictionStage(gpu, args.host_tokens)
    return gpu, stage
