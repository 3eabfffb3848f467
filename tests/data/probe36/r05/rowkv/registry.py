from typing import Callable, Dict, Type

POOL_REGISTRY: Dict[str, Type] = {}


def register_pool(name: str) -> Callable[[Type], Type]:
    def deco(cls: Type) -> Type:
        if name in POOL_REGISTRY:
            raise KeyError(f"pool kind {name!r} already registered")
        POOL_REGISTRY[name] = cls
        cls.kind = name
        return cls

    return deco


def get_pool_cls(name: str) -> Type:
    return POOL_REGISTRY[name]
