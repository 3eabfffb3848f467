"""Encoder-output K/V projected once per stream and reused every decode step."""

import torch


class EncoderKVCache:
    def __init__(self, hp, max_streams, dtype=torch.float16, device="cuda"):
        self.hp = hp
        self.max_streams = max_streams
        self.frames_per_stream = hp.max_source_positions
        self.num_frames = max_streams * self.frames_per_stream
        self.dtype = dtype
        self.device = torch.device(device)
        self._allocate()
        self._free_streams = list(range(max_streams))

    def _allocate(self):
        shape = (self.hp.decoder_layers, self.num_frames,
                 self.hp.decoder_attention_heads, self.hp.head_dim)
        self.cross_k = torch.empty(shape, dtype=self.dtype, device=self.device)
        self.cross_v = torch.empty(shape, dtype=self.dtype, device=self.device)

    def memory_report(self):
        per_frame = sum(t[:, 0].numel() * t.element_size()
                        for t in (self.cross_k, self.cross_v))
        return {
            "streams": self.max_streams,
            "frames": self.num_frames,
            "bytes_per_frame": per_frame,
            "total_bytes": per_frame * self.num_frames,
        }

    def frame_range(self, stream_slot):
        start = stream_slot * self.frames_per_stream
        return slice(start, start + self.frames_per_stream)

    def open_stream(self):
        return self._free_streams.pop()

    def close_stream(self, stream_slot):
        self._free_streams.append(stream_slot)

    def fill(self, stream_slot, layer, k, v):
        rng = self.frame_range(stream_slot)
        self.cross_k[layer, rng] = k
        self.cross_v[layer, rng] = v

    def layer_kv(self, stream_slot, layer):
        rng = self.frame_range(stream_slot)
        return self.cross_k[layer, rng], self.cross_v[layer, rng]
