"""Model card and tensor-parallel placement of one worker."""

import torch


class ModelCard:
    def __init__(self, name="llama-3-70b", num_layers=80, num_attention_heads=64,
                 num_key_value_heads=8, head_dim=128, torch_dtype=torch.bfloat16):
        self.name = name
        self.num_layers = num_layers
        self.num_attention_heads = num_attention_heads
        self.num_key_value_heads = num_key_value_heads
        self.head_dim = head_dim
        self.torch_dtype = torch_dtype

    @classmethod
    def from_hf(cls, raw, name=None):
        heads = raw["num_attention_heads"]
        return cls(
            name=name or raw.get("_name_or_path", "unknown"),
            num_layers=raw["num_hidden_layers"],
            num_attention_heads=heads,
            num_key_value_heads=raw.get("num_key_value_heads", heads),
            head_dim=raw.get("head_dim", raw["hidden_size"] // heads),
            torch_dtype=getattr(torch, raw.get("torch_dtype", "bfloat16")),
        )


class TensorParallel:
    def __init__(self, rank=0, world=1):
        if not 0 <= rank < world:
            raise ValueError(f"rank {rank} outside world of {world}")
        self.rank = rank
        self.world = world

    def shard(self, n):
        if n % self.world:
            raise ValueError(f"{n} heads do not split over {self.world} ranks")
        return n // self.world

    def head_range(self, n):
        per = self.shard(n)
        return range(self.rank * per, (self.rank + 1) * per)
