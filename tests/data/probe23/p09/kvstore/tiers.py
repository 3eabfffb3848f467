from typing import Callable, Dict

TIERS: Dict[str, Callable] = {}


def register_tier(name: str):
    def deco(cls):
        TIERS[name] = cls
        return cls
    return deco


def make_tier(name: str, shelf, conf, **kw):
    # import side effect registers the built-in tiers
    import kvstore.spill  # noqa: F401
    return TIERS[name](shelf, conf, **kw)
