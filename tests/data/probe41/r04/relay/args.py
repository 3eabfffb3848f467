_DEFAULTS = {
    "num_hidden_layers": 28,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "dtype": "bfloat16",
    "tp_size": 2,
    "max_total_tokens": 131072,
    "staging_tokens": 8192,
    "device": "cuda",
    "staging_device": "cpu",
}


class ServeArgs:
    """Launch arguments; anything not given on the command line uses _DEFAULTS."""

    def __init__(self, **overrides):
        unknown = set(overrides) - set(_DEFAULTS)
        if unknown:
            raise TypeError(f"unknown args: {sorted(unknown)}")
        for key, value in {**_DEFAULTS, **overrides}.items():
            setattr(self, key, value)

    @property
    def torch_dtype(self):
        import torch
        return getattr(torch, self.dtype)
