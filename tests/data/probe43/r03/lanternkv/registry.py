from .decode_store import LatentDecodeStore
from .prefill_store import LatentPrefillStore
from .spec import CacheLayout, ModelGeometry, PoolSpec

_STORES = {
    (CacheLayout.LATENT, "prefill"): LatentPrefillStore,
    (CacheLayout.LATENT, "decode"): LatentDecodeStore,
}


def register(layout, role):
    def deco(cls):
        _STORES[(layout, role)] = cls
        return cls
    return deco


def open_disagg_pair(device="cuda", decode_pages=None, **geom):
    geometry = ModelGeometry(**geom)
    pspec = PoolSpec(geometry=geometry, device=device)
    dspec = pspec._replace(num_pages=decode_pages or pspec.num_pages * 2)
    prefill = _STORES[(pspec.layout, "prefill")](pspec)
    decode = _STORES[(dspec.layout, "decode")](dspec)
    return prefill, decode
