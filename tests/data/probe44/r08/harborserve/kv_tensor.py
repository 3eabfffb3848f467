import torch


class StackedKVCache:
    """Single tensor [layers, 2 (k/v), slots, kv_heads_per_rank, head_dim]."""

    def __init__(self, cfg):
        m, c = cfg["model"], cfg["cache"]
        tp = cfg["parallel"]["tensor_parallel_size"]
        self.slots = c["gpu_slots"]
        self.kv_heads = max(1, m["num_key_value_heads"] // tp)
        self.dtype = getattr(torch, m["torch_dtype"])
        self.kv_cache = torch.empty(
            (m["num_hidden_layers"], 2, self.slots, self.kv_heads, m["head_dim"]),
            dtype=self.dtype, device=c["device"])

    def layer(self, i):
        return self.kv_cache[i, 0], self.kv_cache[i, 1]
