"""Builds the KV memory for a disaggregated replica pair.

In production these live in two Ray Serve deployments (PrefillServer /
DecodeServer); the pools are built here so tests can construct both locally.
"""
from .config import EngineArgs
from .decode_pool import DecodeKVPool
from .transfer import KVTransferBuffer


def build_disagg_pools(args: EngineArgs = None, device="cpu", transfer_device=None):
    args = args or EngineArgs()
    pool = DecodeKVPool(args, device=device)
    staging = KVTransferBuffer(args, device=transfer_device)
    return pool, staging


class PrefillServer:
    """Body of the prefill deployment (decorated with @serve.deployment in prod)."""

    def __init__(self, args: EngineArgs = None, device="cpu"):
        self.args = args or EngineArgs()
        self.staging = KVTransferBuffer(self.args, device=device)
        self.inflight = {}

    def handoff(self, request_id: str, per_layer_kv) -> dict:
        n = 0
        for layer, (k, v) in enumerate(per_layer_kv):
            n = self.staging.pack_layer(layer, k, v)
        self.inflight[request_id] = n
        return {"request_id": request_id, "num_tokens": n}


class DecodeServer:
    """Body of the decode deployment; owns the long-lived KV pool."""

    def __init__(self, args: EngineArgs = None, device="cpu"):
        self.args = args or EngineArgs()
        self.pool = DecodeKVPool(self.args, device=device)
        self.next_free = 0

    def accept(self, staging: KVTransferBuffer, meta: dict):
        import torch

        n = meta["num_tokens"]
        if self.next_free + n > self.pool.num_tokens:
            self.next_free = 0
        loc = torch.arange(self.next_free, self.next_free + n, device=self.pool.k_cache.device)
        self.pool.receive(staging, loc, n)
        self.next_free += n
        return loc
