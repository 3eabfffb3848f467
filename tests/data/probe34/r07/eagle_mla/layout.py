"""Shape helpers shared by the target and draft pools."""
from dataclasses import dataclass

import torch


@dataclass
class MLAConfig:
    num_hidden_layers: int = 61
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    num_nextn_predict_layers: int = 1
    torch_dtype: torch.dtype = torch.bfloat16


def pp_layer_range(num_layers, pp_rank, pp_size):
    """Contiguous [start, end) slice of decoder layers owned by one PP rank."""
    per_rank = (num_layers + pp_size - 1) // pp_size
    start = pp_rank * per_rank
    return start, min(num_layers, start + per_rank)


def latent_width(kv_lora_rank, qk_rope_head_dim):
    return kv_lora_rank + qk_rope_head_dim


def paged_latent_shape(num_local_layers, num_pages, page_size, width):
    return (num_local_layers, num_pages, page_size, width)
