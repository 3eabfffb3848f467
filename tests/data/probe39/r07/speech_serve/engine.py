"""Construction of the cross-attention cache and its CPU offload."""

import torch

from .cross_cache import EncoderKVCache
from .hparams import WHISPER_LARGE_V3
from .offload import EncoderKVOffload


def build_encoder_kv(hp=WHISPER_LARGE_V3, max_streams=16, offload_streams=64,
                     dtype=torch.float16, device="cuda", host_device="cpu"):
    cache = EncoderKVCache(hp, max_streams, dtype=dtype, device=device)
    offload = EncoderKVOffload(hp, offload_streams, dtype=dtype, device=host_device)
    return cache, offload


class StreamManager:
    def __init__(self, cache, offload):
        self.cache = cache
        self.offload = offload
        self.active = {}

    def start(self, stream_id):
        self.active[stream_id] = self.cache.open_stream()
        return self.active[stream_id]

    def pause(self, stream_id):
        slot = self.active.pop(stream_id)
        self.offload.park(stream_id, self.cache, slot)
        self.cache.close_stream(slot)

    def resume(self, stream_id):
        slot = self.cache.open_stream()
        self.offload.unpark(stream_id, self.cache, slot)
        self.active[stream_id] = slot
        return slot
