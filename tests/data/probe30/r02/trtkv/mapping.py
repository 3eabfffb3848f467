"""Parallel mapping of a rank inside the world."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Mapping:
    world_size: int = 2
    tp_size: int = 2
    pp_size: int = 1
    rank: int = 0

    @property
    def tp_rank(self) -> int:
        return self.rank % self.tp_size

    def local_kv_heads(self, num_kv_heads: int) -> int:
        # KV heads are replicated when there are fewer of them than TP ranks.
        return max(1, num_kv_heads // self.tp_size)
