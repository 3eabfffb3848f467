"""Very small stand-in for a NIXL agent: tracks registered regions and builds
per-block transfer descriptors (offset, length) for each region."""
from dataclasses import dataclass, field


@dataclass
class RegionDesc:
    name: str
    nbytes: int
    num_blocks: int

    @property
    def block_len(self) -> int:
        return self.nbytes // self.num_blocks


@dataclass
class TransferAgent:
    agent_name: str
    regions: dict = field(default_factory=dict)

    def register(self, pool, num_blocks: int):
        for name, t in pool.regions():
            self.regions[name] = RegionDesc(name, t.nbytes, num_blocks)

    def descriptors(self, block_ids):
        out = []
        for r in self.regions.values():
            out.extend((r.name, b * r.block_len, r.block_len) for b in block_ids)
        return out
