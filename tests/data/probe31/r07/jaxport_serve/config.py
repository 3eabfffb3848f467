from typing import NamedTuple, Tuple

import torch


class TransformerConfig(NamedTuple):
    """Ported from the Flax ``TransformerConfig`` pytree (field names kept)."""

    vocab_size: int = 102400
    emb_dim: int = 2048
    num_layers: int = 8
    num_heads: int = 16
    head_dim: int = 192
    v_head_dim: int = 128
    mlp_dim: int = 10944
    dtype: torch.dtype = torch.bfloat16
    page_size: int = 16
    num_pages: int = 32
    host_pages: int = 64
    tensor_parallel: int = 2


def stage_layer_range(cfg: TransformerConfig, stage: int, num_stages: int) -> Tuple[int, int]:
    per_stage, extra = divmod(cfg.num_layers, num_stages)
    start_layer = stage * per_stage + min(stage, extra)
    end_layer = start_layer + per_stage + (1 if stage < extra else 0)
    return start_layer, end_layer
