"""LRU index from prefix hashes to CPU-tier block ids."""
from collections import OrderedDict


class PrefixBlockIndex:
    def __init__(self, capacity):
        self.capacity = capacity
        self._blocks = OrderedDict()

    def __contains__(self, prefix_hash):
        return prefix_hash in self._blocks

    def __len__(self):
        return len(self._blocks)

    def insert(self, prefix_hash, block):
        self._blocks[prefix_hash] = block
        self._blocks.move_to_end(prefix_hash)

    def pop(self, prefix_hash):
        return self._blocks.pop(prefix_hash)

    def touch(self, prefix_hash):
        self._blocks.move_to_end(prefix_hash)

    def evict_lru(self):
        """Drop the least recently used prefix and return its block id."""
        _, block = self._blocks.popitem(last=False)
        return block
