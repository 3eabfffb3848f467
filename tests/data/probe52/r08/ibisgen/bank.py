"""GPU caches: decoder self-attention KV per text token, cross-attention KV per encoder frame."""
import torch

from .heads import attention_geometry, decoder_layers


class SeqToSeqKVBank:
    KINDS = ("self", "cross")

    def __init__(self, cfg, tp, text_tokens, max_requests, dtype, device="cuda"):
        self.num_layers = decoder_layers(cfg)
        self.dtype = dtype
        frames = getattr(cfg, "max_source_positions", None) or cfg.n_positions
        self.slots = {"self": text_tokens + 1, "cross": max_requests * frames}
        self.geometry = {k: attention_geometry(cfg, k, tp) for k in self.KINDS}
        # K and V stacked on a leading axis of 2
        self.self_kv = self._layers("self", device)
        self.cross_kv = self._layers("cross", device)

    def _layers(self, kind, device):
        heads, head_dim = self.geometry[kind]
        shape = (2, self.slots[kind], heads, head_dim)
        return [torch.zeros(shape, dtype=self.dtype, device=device) for _ in range(self.num_layers)]

    def kv(self, kind: str, layer: int):
        k, v = getattr(self, f"{kind}_kv")[layer].unbind(0)
        return k, v
