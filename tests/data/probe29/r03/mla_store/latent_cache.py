"""Device-resident MLA cache: one latent row (c_kv || k_pe) per token per layer."""
import torch


class MLATokenCache:
    def __init__(self, max_tokens: int, kv_lora_rank: int, qk_rope_head_dim: int,
                 num_layers: int, dtype: torch.dtype, device: str = "cuda"):
        self.max_tokens = max_tokens
        self.kv_lora_rank = kv_lora_rank
        self.qk_rope_head_dim = qk_rope_head_dim
        self.num_layers = num_layers
        self.dtype = dtype
        self.device = device
        self.kv_buffer = [
            torch.zeros((max_tokens, 1, kv_lora_rank + qk_rope_head_dim), dtype=dtype, device=device)
            for _ in range(num_layers)
        ]

    @classmethod
    def from_config(cls, hf_config, max_tokens, dtype=None, device="cuda"):
        kwargs = dict(
            max_tokens=max_tokens,
            kv_lora_rank=hf_config.kv_lora_rank,
            qk_rope_head_dim=hf_config.qk_rope_head_dim,
            num_layers=hf_config.num_hidden_layers,
            dtype=dtype or hf_config.torch_dtype,
            device=device,
        )
        return cls(**kwargs)

    def get_key_buffer(self, layer_id):
        return self.kv_buffer[layer_id]

    def get_value_buffer(self, layer_id):
        # V is the latent part only; the rope tail belongs to K
        return self.kv_buffer[layer_id][..., : self.kv_lora_rank]

    def set_mla_kv_buffer(self, layer_id, loc, c_kv, k_pe):
        self.kv_buffer[layer_id][loc, :, : self.kv_lora_rank] = c_kv
        self.kv_buffer[layer_id][loc, :, self.kv_lora_rank:] = k_pe
