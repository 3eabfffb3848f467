import torch


class LatentSwapTier:
    """Flat swap space for preempted requests; one row per token per layer."""

    def __init__(self, spec):
        self.slots = spec.tokens
        elem = getattr(torch, spec.dtype_name)
        row = spec.kv_lora_rank + spec.qk_rope_head_dim
        self.row_split = (spec.kv_lora_rank, spec.qk_rope_head_dim)
        flat = torch.zeros(spec.n_layers * self.slots * row, dtype=elem, device=spec.device)
        packed = flat.view(spec.n_layers, self.slots, row)
        # views into the packed storage; copied separately on swap in/out
        self.latent_rows, self.rope_rows = packed.split(self.row_split, dim=-1)
        self._packed = packed

    def swap_out(self, cache, src, dst):
        self.latent_rows[:, dst] = cache.ckv[:, src, 0]
        self.rope_rows[:, dst] = cache.kpe[:, src, 0]

    def swap_in(self, cache, src, dst):
        cache.ckv[:, dst, 0] = self.latent_rows[:, src]
        cache.kpe[:, dst, 0] = self.rope_rows[:, src]
