"""Stand-in for the DeepSeek-V3 HF config (tiny numbers)."""
import torch


class DeepseekV3Config:
    def __init__(self, num_hidden_layers=4, hidden_size=384, num_attention_heads=6,
                 q_lora_rank=96, kv_lora_rank=64, qk_nope_head_dim=32, qk_rope_head_dim=16,
                 v_head_dim=32, torch_dtype=torch.bfloat16):
        self.num_hidden_layers = num_hidden_layers
        self.hidden_size = hidden_size
        self.num_attention_heads = num_attention_heads
        self.q_lora_rank = q_lora_rank
        self.kv_lora_rank = kv_lora_rank
        self.qk_nope_head_dim = qk_nope_head_dim
        self.qk_rope_head_dim = qk_rope_head_dim
        self.v_head_dim = v_head_dim
        self.torch_dtype = torch_dtype

    @property
    def qk_head_dim(self):
        return self.qk_nope_head_dim + self.qk_rope_head_dim


def stage_layers(num_layers, pp_rank, pp_size):
    """Contiguous slice of layer ids owned by pipeline stage `pp_rank`."""
    per = num_layers // pp_size
    start = pp_rank * per
    end = num_layers if pp_rank == pp_size - 1 else start + per
    return list(range(start, end))
