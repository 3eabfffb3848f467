from typing import NamedTuple

import torch


class LatentSpec(NamedTuple):
    n_layers: int = 27
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    dtype_name: str = "bfloat16"
    tokens: int = 32768
    device: str = "cuda"


def buffer_layout(spec, which):
    """Return (dtype, shape) for one of the latent cache buffers."""
    dtype = getattr(torch, spec.dtype_name)
    width = {"latent": spec.kv_lora_rank, "rope": spec.qk_rope_head_dim}[which]
    # one leading layer axis, a single shared "head" for MLA
    return dtype, (spec.n_layers, spec.tokens, 1, width)
