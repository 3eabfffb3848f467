"""Builds the device store and its host mirror at engine start."""
from .gpu import SparseLatentStore
from .host import LatentHostMirror


def provision_sparse_cache(cfg, server, device="cuda", host_device="cpu"):
    store = SparseLatentStore(cfg, server.max_tokens, page_size=server.page_size, device=device)
    mirror = LatentHostMirror(store, ratio=server.host_ratio, device=host_device)
    assert mirror.token_bytes() == store.token_bytes()
    return store, mirror
