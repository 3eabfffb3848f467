import typing


class BaseSettings:
    """Tiny pydantic-like base: typed class attributes become validated fields."""

    def __init__(self, **values):
        for name, typ in typing.get_type_hints(type(self)).items():
            val = values.pop(name, getattr(type(self), name))
            if not isinstance(val, typ):
                val = typ(val)
            setattr(self, name, val)
        if values:
            raise TypeError(f"unknown fields: {sorted(values)}")

    def model_copy(self, update=None):
        data = {k: getattr(self, k) for k in typing.get_type_hints(type(self))}
        data.update(update or {})
        return type(self)(**data)


class MLACacheSettings(BaseSettings):
    num_hidden_layers: int = 61
    kv_lora_rank: int = 512
    qk_rope_head_dim: int = 64
    index_head_dim: int = 128
    kv_cache_dtype: str = "fp8_e4m3"
    quant_tile: int = 128
    page_size: int = 64
    decode_pages: int = 8192
    prefill_pages: int = 2048
    enable_indexer: bool = True
