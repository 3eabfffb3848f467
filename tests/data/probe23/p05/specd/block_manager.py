from collections import deque


class BlockSpaceManager:
    """Shared block table for target and draft: a sequence's block ids index
    both pools, which is why the draft pool reuses the target block size."""

    def __init__(self, num_blocks: int, block_size: int,
                 lookahead_slots: int = 0):
        self.block_size = block_size
        self.lookahead_slots = lookahead_slots
        self.free = deque(range(num_blocks))
        self.tables: dict[int, list[int]] = {}

    def blocks_needed(self, num_tokens: int) -> int:
        total = num_tokens + self.lookahead_slots
        return -(-total // self.block_size)

    def can_allocate(self, num_tokens: int) -> bool:
        return self.blocks_needed(num_tokens) <= len(self.free)

    def allocate(self, seq_id: int, num_tokens: int) -> list[int]:
        table = self.tables.setdefault(seq_id, [])
        while len(table) < self.blocks_needed(num_tokens):
            table.append(self.free.popleft())
        return table

    def free_seq(self, seq_id: int):
        self.free.extend(self.tables.pop(seq_id, []))
