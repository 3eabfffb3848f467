import torch


class MigrationPeerBuffer:
    """Landing zone on the target instance when a running request is live-migrated."""

    def __init__(self, pool, hf: dict, slots: int, device="cuda"):
        self.layer_ids = list(pool.layer_ids)
        self.slots = slots
        dtype = getattr(torch, hf["torch_dtype"])
        n, two = len(self.layer_ids), 2
        self.kv = torch.empty((n, two, slots, pool.kv_heads, pool.head_dim), dtype=dtype, device=device)
        self.kv_scale = torch.empty((n, two, slots, pool.kv_heads), dtype=pool.kv_scale.dtype, device=device)
        self.cursor = 0

    def push(self, pool, layer_id, slot_ids):
        kv, sc = pool.gather(layer_id, slot_ids)
        i = self.layer_ids.index(layer_id)
        n = len(slot_ids)
        self.kv[i, :, self.cursor:self.cursor + n] = kv
        self.kv_scale[i, :, self.cursor:self.cursor + n] = sc

    def commit(self, n):
        self.cursor += n
