"""Byte staging area used to move accepted draft KV between ranks/streams."""
import torch

from .geometry import DraftGeometry


class DraftStagingBuffer:
    def __init__(self, geom: DraftGeometry, max_tokens: int, device="cuda"):
        self.geom = geom
        self.max_tokens = max_tokens
        self.stride = geom.bytes_per_token()
        self.raw = torch.empty(max_tokens * self.stride, dtype=torch.uint8, device=device)
        # token-major: [tokens, layers, 2, heads, head_dim]
        self.kv = self.raw.view(geom.dtype).view(
            (max_tokens, geom.num_layers) + geom.token_shape
        )

    def pack(self, pool, loc: torch.Tensor) -> torch.Tensor:
        n = loc.numel()
        self.kv[:n] = pool.kv[:, loc].transpose(0, 1)
        return self.raw[: n * self.stride]

    def unpack(self, pool, loc: torch.Tensor):
        n = loc.numel()
        pool.kv[:, loc] = self.kv[:n].transpose(0, 1)
