"""Pydantic-like settings object for the paged KV cache (validated on construction)."""


class _Field:
    def __init__(self, default, choices=None):
        self.default = default
        self.choices = choices


class _Settings:
    def __init__(self, **kwargs):
        for name, fld in type(self).__dict__.items():
            if not isinstance(fld, _Field):
                continue
            value = kwargs.pop(name, fld.default)
            if fld.choices is not None and value not in fld.choices:
                raise ValueError(f"{name}={value!r} not in {fld.choices}")
            setattr(self, name, value)
        if kwargs:
            raise TypeError(f"unknown settings: {sorted(kwargs)}")


class KvCacheSettings(_Settings):
    tokens_per_block = _Field(64)
    max_tokens = _Field(131072)
    host_cache_size = _Field(8 * 1024**3)
    dtype = _Field("int8", choices=("auto", "float16", "bfloat16", "int8", "fp8"))
    enable_block_reuse = _Field(True)
    tensor_parallel = _Field(1)
