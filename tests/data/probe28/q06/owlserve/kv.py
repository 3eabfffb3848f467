import torch


class EngineKV:
    def __init__(self, layer_count, kv_head_count, dim_per_head, tp_ranks, max_tokens,
                 elem_dtype=torch.bfloat16, device="cuda"):
        if kv_head_count % tp_ranks:
            raise ValueError("kv heads must divide evenly across tp ranks")
        self.layer_count = layer_count
        self.max_tokens = max_tokens
        self.local_heads = kv_head_count // tp_ranks
        self.kcache = []
        self.vcache = []
        row = (max_tokens, self.local_heads, dim_per_head)
        for _ in range(layer_count):
            self.kcache.append(torch.empty(row, dtype=elem_dtype, device=device))
            self.vcache.append(torch.empty(row, dtype=elem_dtype, device=device))

    def write(self, layer, slots, k, v):
        self.kcache[layer].index_copy_(0, slots, k)
        self.vcache[layer].index_copy_(0, slots, v)
