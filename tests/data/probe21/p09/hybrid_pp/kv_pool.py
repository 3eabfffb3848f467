import torch


class AttnKVPool:
    """KV for the attention layers of one pipeline stage; mamba layers hold no KV here."""

    def __init__(self, layer_ids, slots, kv_heads, head_dim, cache_dtype: str, device="cuda"):
        self.layer_ids = list(layer_ids)
        self.index = {lid: i for i, lid in enumerate(self.layer_ids)}
        self.slots = slots
        self.kv_heads = kv_heads
        self.head_dim = head_dim
        self.dtype = getattr(torch, cache_dtype)
        n = len(self.layer_ids)
        self.kv = torch.empty(n, 2, slots, kv_heads, head_dim, dtype=self.dtype, device=device)
        self.kv_scale = torch.ones(n, 2, slots, kv_heads, dtype=torch.float32, device=device)

    def layer(self, layer_id):
        i = self.index[layer_id]
        return self.kv[i], self.kv_scale[i]

    def gather(self, layer_id, slot_ids):
        kv, sc = self.layer(layer_id)
        return kv[:, slot_ids], sc[:, slot_ids]
