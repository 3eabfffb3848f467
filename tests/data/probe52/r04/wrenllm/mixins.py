"""Shared pieces of the prefill and decode KV caches."""


class HeadShardMixin:
    def _kv_pair(self, arena, slots):
        lay = self.layout
        shape = (slots, *lay.token_shape)
        keys = [arena.take(shape, lay.element) for _ in range(lay.layers)]
        values = [arena.take(shape, lay.element) for _ in range(lay.layers)]
        return keys, values


class ScaleSidecarMixin:
    def _scale_pair(self, arena, slots):
        lay = self.layout
        if lay.scale is None:
            return [], []
        shape = (slots, lay.heads_per_rank)
        return (
            [arena.take(shape, lay.scale) for _ in range(lay.layers)],
            [arena.take(shape, lay.scale) for _ in range(lay.layers)],
        )
