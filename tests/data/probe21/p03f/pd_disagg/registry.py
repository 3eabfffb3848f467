_POOLS = {}


def register_pool(role):
    def deco(cls):
        _POOLS[role] = cls
        return cls
    return deco


def pool_for(role):
    return _POOLS[role]


def make_pair(config_text=None, device="cuda", **overrides):
    from . import decode_pool, prefill_pool  # noqa: F401  (registers classes)
    from .config import load_kv_config

    cfg = load_kv_config(config_text, **overrides) if config_text else load_kv_config(**overrides)
    prefill = pool_for("prefill")(cfg, device=device)
    decode = pool_for("decode")(cfg, device=device)
    return prefill, decode
