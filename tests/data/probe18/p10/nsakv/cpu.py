import torch

from .gpu import NSADevicePool
from .shapes import index_row, latent_row


class NSAHostPool:
    def __init__(self, dev: NSADevicePool, n_tokens: int):
        cfg = dev.cfg
        self.n_tokens = n_tokens
        self.n_layers = dev.n_layers
        width, idx_dt = index_row(cfg)
        self.latent = torch.empty(self.n_layers, n_tokens, latent_row(cfg), dtype=dev.dtype)
        self.index_keys = torch.empty(self.n_layers, n_tokens, width, dtype=idx_dt)


DEFAULTS = dict(kv_lora_rank=512, qk_rope_head_dim=64, index_head_dim=128,
                dtype=torch.bfloat16, num_layers=61)


def make_stage_pools(stage=0, num_stages=1, n_tokens=100_000, host_tokens=400_000,
                     device="cuda", **overrides):
    cfg = {**DEFAULTS, **overrides}
    per = -(-cfg["num_layers"] // num_stages)
    start, end = stage * per, min((stage + 1) * per, cfg["num_layers"])
    dev = NSADevicePool(cfg, n_tokens, start, end, device=device)
    return dev, NSAHostPool(dev, host_tokens)
