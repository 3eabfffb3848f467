def configclass(cls):
    """Tiny stand-in for attrs.define(frozen=True): keyword __init__ from annotated defaults."""
    fields = tuple(cls.__annotations__)
    defaults = {f: getattr(cls, f) for f in fields}

    def __init__(self, **kw):
        unknown = set(kw) - set(fields)
        if unknown:
            raise TypeError(f"unknown fields: {sorted(unknown)}")
        for f in fields:
            object.__setattr__(self, f, kw.get(f, defaults[f]))

    def __setattr__(self, name, value):
        raise AttributeError(f"{cls.__name__} is frozen")

    def evolve(self, **kw):
        return cls(**{**{f: getattr(self, f) for f in fields}, **kw})

    cls.__init__, cls.__setattr__, cls.evolve = __init__, __setattr__, evolve
    cls.__attrs_fields__ = fields
    return cls


@configclass
class TransferConfig:
    model_id: str = "google/gemma-2-9b-it"
    num_layers: int = 42
    num_kv_heads: int = 8
    head_dim: int = 256
    kv_int8: bool = True
    inline_scale: bool = True  # fp32 scale appended to every int8 (token, head) row
    max_total_tokens: int = 65536
    staging_tokens: int = 16384
