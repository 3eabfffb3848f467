import torch

from .spec import PoolSpec


class LatentPrefillStore:
    """Compressed-KV store on the prefill worker: latent + decoupled rope key."""

    def __init__(self, spec: PoolSpec):
        g = spec.geometry
        self.spec = spec
        self.slots = spec.token_slots
        self.latent_buf = [
            torch.zeros((self.slots, 1, g.kv_lora_rank), dtype=g.dtype, device=spec.device)
            for _ in range(g.depth)
        ]
        self.rope_buf = [
            torch.zeros((self.slots, 1, g.qk_rope_head_dim), dtype=g.dtype, device=spec.device)
            for _ in range(g.depth)
        ]

    def transfer_descriptors(self, layer):
        return [
            (t.data_ptr(), t.nbytes, t[0].nbytes)
            for t in (self.latent_buf[layer], self.rope_buf[layer])
        ]
