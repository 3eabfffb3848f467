"""Attention geometry of the multi-head latent attention models we host."""

from typing import NamedTuple


class LatentAttnSpec(NamedTuple):
    num_hidden_layers: int
    num_attention_heads: int
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int

    @property
    def q_head_dim(self):
        return self.qk_nope_head_dim + self.qk_rope_head_dim

    @property
    def softmax_scale(self):
        return self.q_head_dim ** -0.5


DEEPSEEK_V2_LITE = LatentAttnSpec(
    num_hidden_layers=27,
    num_attention_heads=16,
    kv_lora_rank=512,
    qk_nope_head_dim=128,
    qk_rope_head_dim=64,
    v_head_dim=128,
)

DEEPSEEK_V2 = DEEPSEEK_V2_LITE._replace(num_hidden_layers=60, num_attention_heads=128)

SPECS = {
    "deepseek-v2-lite": DEEPSEEK_V2_LITE,
    "deepseek-v2": DEEPSEEK_V2,
}
