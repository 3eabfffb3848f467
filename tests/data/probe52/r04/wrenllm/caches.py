"""Prefill-side and decode-side KV caches."""
from .alloc import allocation_scope
from .layout import RankKVLayout
from .mixins import HeadShardMixin, ScaleSidecarMixin


class PrefillShardCache(HeadShardMixin, ScaleSidecarMixin):
    def __init__(self, layout: RankKVLayout, tokens: int, block: int = 32, device="cuda"):
        self.layout, self.block = layout, block
        slots = -(-tokens // block) * block + block
        with allocation_scope(device, "prefill kv") as arena:
            self.key_pages, self.value_pages = self._kv_pair(arena, slots)
            self.key_scales, self.value_scales = self._scale_pair(arena, slots)
        self.nbytes = arena.nbytes


class DecodeIntakeCache(ScaleSidecarMixin, HeadShardMixin):
    def __init__(self, layout: RankKVLayout, tokens: int, block: int = 32, device="cuda"):
        self.layout, self.block = layout, block
        self.blocks = -(-tokens // block) + 1
        with allocation_scope(device, "decode intake kv") as arena:
            self.in_keys, self.in_values = self._kv_pair(arena, self.blocks * block)
            self.in_key_scales, self.in_value_scales = self._scale_pair(arena, self.blocks * block)
        self.nbytes = arena.nbytes
