"""Prefill worker: owns the latent arena and the outbound staging buffer."""

import torch

from .arena import LatentKVArena
from .model_spec import DEEPSEEK_V2_LITE, SPECS
from .transfer import KVSendStaging


def setup_prefill_kv(spec=DEEPSEEK_V2_LITE, num_slots=65536, chunk_tokens=8192,
                     dtype=torch.bfloat16, device="cuda", staging_device="cpu"):
    arena = LatentKVArena(spec, num_slots, dtype=dtype, device=device)
    staging = KVSendStaging(spec, chunk_tokens, dtype=dtype, device=staging_device)
    return arena, staging


class PrefillWorker:
    def __init__(self, model_name="deepseek-v2-lite", **kw):
        self.spec = SPECS[model_name]
        self.arena, self.staging = setup_prefill_kv(self.spec, **kw)
        self.pending = {}

    def on_prefill_done(self, req_id, slots):
        self.staging.reset()
        self.staging.pack(self.arena, slots)
        self.pending[req_id] = (slots, self.staging.region())
        return self.pending[req_id][1]

    def on_transfer_ack(self, req_id):
        slots, _ = self.pending.pop(req_id)
        self.arena.free(slots)
