from typing import Callable, Dict, Type

POOLS: Dict[str, Type] = {}


def register_pool(name: str) -> Callable[[Type], Type]:
    def deco(cls: Type) -> Type:
        if name in POOLS:
            raise KeyError(f"pool {name!r} registered twice")
        POOLS[name] = cls
        return cls
    return deco


def create_pool(name: str, *args, **kwargs):
    return POOLS[name](*args, **kwargs)
