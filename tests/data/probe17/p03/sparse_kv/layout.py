import math

import torch

KV_LORA_RANK = 512
QK_ROPE_DIM = 64
INDEX_HEAD_DIM = 128
QUANT_BLOCK = 128
SCALE_BYTES = 4  # one float32 scale per quant block


def latent_width(kv_lora_rank=KV_LORA_RANK, rope_dim=QK_ROPE_DIM):
    return kv_lora_rank + rope_dim


def index_row_bytes(dim=INDEX_HEAD_DIM, block=QUANT_BLOCK):
    """fp8 key bytes followed by the per-block float32 scales."""
    return dim + math.prod((dim // block, SCALE_BYTES))
