from dataclasses import dataclass

import torch


@dataclass
class DecoderCacheConfig:
    num_decoder_layers: int = 32
    num_heads: int = 20
    head_dim: int = 64
    max_source_positions: int = 1500
    dtype: torch.dtype = torch.float16

    @classmethod
    def from_hf(cls, hf: dict) -> "DecoderCacheConfig":
        d_model = hf.get("d_model", 1280)
        heads = hf.get("decoder_attention_heads", 20)
        return cls(
            num_decoder_layers=hf.get("decoder_layers", 32),
            num_heads=heads,
            head_dim=d_model // heads,
            max_source_positions=hf.get("max_source_positions", 1500),
            dtype=getattr(torch, hf.get("torch_dtype", "float16")),
        )
