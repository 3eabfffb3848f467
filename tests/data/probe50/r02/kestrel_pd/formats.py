"""Latent KV storage formats for MLA models."""
import enum

import torch


class LatentFormat(enum.Enum):
    # (cli tag, storage dtype of the latent, quant tile along kv_lora_rank; 0 = unquantized)
    BF16 = ("bf16", torch.bfloat16, 0)
    FP8_TILED = ("fp8_tiled", torch.float8_e4m3fn, 128)

    def __init__(self, tag, storage_dtype, tile):
        self.tag = tag
        self.storage_dtype = storage_dtype
        self.tile = tile

    @property
    def quantized(self):
        return self.tile > 0

    @classmethod
    def parse(cls, tag):
        for fmt in cls:
            if fmt.tag == tag:
                return fmt
        raise ValueError(f"unknown latent format {tag}")


# the rotary part of the key is never quantized: it stays in the activation dtype
ROPE_DTYPE = torch.bfloat16
SCALE_DTYPE = torch.float32
