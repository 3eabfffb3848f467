class Mapping:
    """Rank -> (tp, pp) coordinates, trimmed from tensorrt_llm.mapping."""

    def __init__(self, world_size=1, rank=0, tp_size=1, pp_size=1):
        if tp_size * pp_size != world_size:
            raise ValueError(f"world_size {world_size} != tp {tp_size} * pp {pp_size}")
        self.world_size = world_size
        self.rank = rank
        self.tp_size = tp_size
        self.pp_size = pp_size

    @property
    def tp_rank(self):
        return self.rank % self.tp_size

    @property
    def pp_rank(self):
        return self.rank // self.tp_size

    def pp_layers(self, num_layers: int) -> list[int]:
        per = num_layers // self.pp_size
        return list(range(self.pp_rank * per, (self.pp_rank + 1) * per))
