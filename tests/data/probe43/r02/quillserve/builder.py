from .arena import Fp8KVArena
from .offload_pool import Fp8KVOffload
from .settings import QuantKVSettings


def assemble_kv(overrides=None):
    cfg = QuantKVSettings(**(overrides or {}))
    arena = Fp8KVArena(cfg)
    offload = Fp8KVOffload(cfg)
    return arena, offload
