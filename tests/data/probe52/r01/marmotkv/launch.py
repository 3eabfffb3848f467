"""Startup wiring for the latent cache tiers."""
from .geometry import LatentGeometry
from .gpu_slabs import LatentSlabs
from .offload import OffloadLatentTier


def assemble_latent_tiers(hf: dict, opts, device="cuda", offload_device="cpu"):
    geom = LatentGeometry.from_hf(
        hf, kv_format=getattr(opts, "kv_format", "auto"),
        page_tokens=getattr(opts, "page_tokens", 1),
    )
    slabs = LatentSlabs(geom, opts.gpu_tokens, device=device)
    tier = OffloadLatentTier.mirroring(slabs, opts.offload_ratio, device=offload_device)
    return slabs, tier
