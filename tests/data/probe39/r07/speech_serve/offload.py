"""CPU parking for encoder K/V of idle streams (e.g. paused microphones)."""

import torch


class EncoderKVOffload:
    def __init__(self, hp, capacity_streams, dtype, device="cpu"):
        self.hp = hp
        self.capacity_streams = capacity_streams
        self.frames_per_stream = hp.max_source_positions
        self.num_frames = capacity_streams * self.frames_per_stream
        self.dtype = dtype
        self.device = torch.device(device)
        self.reserve()
        self.parked = {}

    def reserve(self):
        pin = self.device.type == "cpu" and torch.cuda.is_available()
        # heads flattened into the hidden dim; same bytes as the device layout
        shape = (self.hp.decoder_layers, self.num_frames, self.hp.d_model)
        self.k_host = torch.empty(shape, dtype=self.dtype, device=self.device, pin_memory=pin)
        self.v_host = torch.empty(shape, dtype=self.dtype, device=self.device, pin_memory=pin)
        self._free = list(range(self.capacity_streams))

    def _rng(self, host_slot):
        start = host_slot * self.frames_per_stream
        return slice(start, start + self.frames_per_stream)

    def park(self, stream_id, cache, stream_slot):
        host_slot = self._free.pop()
        src = cache.frame_range(stream_slot)
        dst = self._rng(host_slot)
        self.k_host[:, dst].copy_(cache.cross_k[:, src].flatten(-2), non_blocking=True)
        self.v_host[:, dst].copy_(cache.cross_v[:, src].flatten(-2), non_blocking=True)
        self.parked[stream_id] = host_slot

    def unpark(self, stream_id, cache, stream_slot):
        host_slot = self.parked.pop(stream_id)
        src = self._rng(host_slot)
        dst = cache.frame_range(stream_slot)
        heads = self.hp.decoder_attention_heads
        cache.cross_k[:, dst].copy_(self.k_host[:, src].unflatten(-1, (heads, -1)), non_blocking=True)
        cache.cross_v[:, dst].copy_(self.v_host[:, src].unflatten(-1, (heads, -1)), non_blocking=True)
        self._free.append(host_slot)
