class DisaggSettings:
    """Knobs shared by the prefill and decode workers of one P/D pair.

    Defaults describe DeepSeek-V3; override per deployment with keyword args.
    """

    num_layers = 61
    kv_lora_rank = 512
    qk_rope_head_dim = 64
    qk_nope_head_dim = 128
    latent_format = "fp8_tiled"
    page_size = 64
    prefill_tokens = 262_144
    decode_tokens = 1_048_576

    def __init__(self, **overrides):
        for key, value in overrides.items():
            if not hasattr(type(self), key):
                raise TypeError(f"unknown setting {key}")
            setattr(self, key, value)

    def as_dict(self):
        keys = [k for k in vars(type(self)) if not k.startswith("_") and not callable(getattr(self, k))]
        return {k: getattr(self, k) for k in keys}
