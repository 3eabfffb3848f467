from typing import Callable, Dict

STORAGE_BACKENDS: Dict[str, Callable] = {}


def register_backend(name: str):
    def deco(factory):
        STORAGE_BACKENDS[name] = factory
        return factory
    return deco


def create_backend(name: str, config, metadata, device: str = "cpu"):
    if name not in STORAGE_BACKENDS:
        raise KeyError(f"no storage backend named {name!r}")
    return STORAGE_BACKENDS[name](config, metadata, device)


from . import local_cpu  # noqa: E402,F401  (registers "local_cpu")
