class _Model:
    """Tiny stand-in for pydantic.BaseModel: typed defaults, validation, model_copy."""

    def __init__(self, **data):
        for name, typ in self.__annotations__.items():
            value = data.pop(name, getattr(type(self), name))
            if not isinstance(value, typ):
                value = typ(value)
            setattr(self, name, value)
        if data:
            raise TypeError(f"unknown fields: {sorted(data)}")

    def model_copy(self, update=None):
        fields = {k: getattr(self, k) for k in self.__annotations__}
        fields.update(update or {})
        return type(self)(**fields)


class SpecConfig(_Model):
    target_model: str = "meta-llama/Llama-3.1-8B-Instruct"
    draft_model: str = "yuhuili/EAGLE-LLaMA3.1-Instruct-8B"
    target_layers: int = 32
    draft_layers: int = 1
    num_kv_heads: int = 8
    head_dim: int = 128
    num_pages: int = 4096
    page_size: int = 16
    key_dtype: str = "fp8_e4m3"
    value_dtype: str = "bfloat16"
    num_speculative_tokens: int = 4
