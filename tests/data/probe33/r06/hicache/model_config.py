"""DeepSeek-V3.2-style attention geometry."""

from dataclasses import dataclass


@dataclass
class MLAConfig:
    num_hidden_layers: int = 61
    kv_lora_rank: int = 512
    qk_nope_head_dim: int = 128
    qk_rope_head_dim: int = 64
    index_head_dim: int = 128
    index_quant_block: int = 128

    @property
    def latent_dim(self):
        return self.kv_lora_rank

    @property
    def qk_head_dim(self):
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def kv_cache_dim(self):
        return self.kv_lora_rank + self.qk_rope_head_dim

    @property
    def index_bytes_per_token(self):
        """fp8 index key plus one fp32 scale per quant block."""
        return self.index_head_dim + self.index_head_dim // self.index_quant_block * 4


def pp_layer_range(num_layers, pp_rank, pp_size):
    per_rank = (num_layers + pp_size - 1) // pp_size
    start = pp_rank * per_rank
    return start, min(num_layers, start + per_rank)
