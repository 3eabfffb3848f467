from dataclasses import dataclass


@dataclass
class AttnDims:
    """Non-absorbed MLA ("MHA mode") attention geometry."""
    num_layers: int = 12
    num_kv_heads: int = 16
    qk_nope_head_dim: int = 128
    qk_rope_head_dim: int = 64
    v_head_dim: int = 128
    dtype: str = "float16"
    prefill_tokens: int = 16384
    decode_tokens: int = 65536
    device: str = "cuda"

    @property
    def head_dim(self):
        # full key width seen by attention
        return self.qk_nope_head_dim + self.qk_rope_head_dim
