"""Model/cache spec, ported from the flax config pytree."""
import dataclasses

import torch

_JNP_NAME_TO_TORCH = {
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float32": torch.float32,
}


def jnp_dtype(name: str) -> torch.dtype:
    """Translate a jnp dtype name (as stored in the checkpoint config)."""
    return _JNP_NAME_TO_TORCH[name]


@dataclasses.dataclass
class LatentAttnSpec:
    n_layers: int = 27
    n_heads: int = 16
    latent_rank: int = 512          # compressed c_kv width
    rope_dim: int = 64              # decoupled rotary key width (shared by heads)
    nope_dim: int = 128
    value_dim: int = 128
    cache_dtype: str = "bfloat16"
    page_size: int = 64
    hbm_cache_bytes: int = 6 << 30
    host_mirror_tokens: int = 262144

    @property
    def q_head_dim(self) -> int:
        return self.nope_dim + self.rope_dim

    @property
    def cache_width(self) -> int:
        return self.latent_rank + self.rope_dim


def spec_from_hf(cfg: dict) -> LatentAttnSpec:
    """Build a spec from a HuggingFace-style config dict."""
    return LatentAttnSpec(
        n_layers=cfg.get("num_hidden_layers", 27),
        n_heads=cfg.get("num_attention_heads", 16),
        latent_rank=cfg.get("kv_lora_rank", 512),
        rope_dim=cfg.get("qk_rope_head_dim", 64),
        nope_dim=cfg.get("qk_nope_head_dim", 128),
        value_dim=cfg.get("v_head_dim", 128),
        cache_dtype=cfg.get("torch_dtype", "bfloat16"),
    )
