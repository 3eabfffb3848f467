from typing import NamedTuple, Optional


class ModelSpec(NamedTuple):
    hidden_size: int
    num_attention_heads: int
    num_key_value_heads: int
    num_hidden_layers: int
    head_dim: Optional[int] = None

    @property
    def attn_head_dim(self) -> int:
        return self.head_dim or self.hidden_size // self.num_attention_heads


KNOWN_MODELS = {
    "meta-llama/Meta-Llama-3-8B-Instruct": ModelSpec(4096, 32, 8, 32, head_dim=128),
    "meta-llama/Meta-Llama-3-70B-Instruct": ModelSpec(8192, 64, 8, 80, head_dim=128),
    # EAGLE heads: a single decoder layer on top of the target's features.
    "yuhuili/EAGLE-LLaMA3-Instruct-8B": ModelSpec(4096, 32, 8, 1),
    "yuhuili/EAGLE-LLaMA3-Instruct-70B": ModelSpec(8192, 64, 8, 1),
}


def lookup(name: str) -> ModelSpec:
    try:
        return KNOWN_MODELS[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}") from None
