from gullkv.device_pool import GpuKVPool
from gullkv.host_pool import PinnedHostMirror
from gullkv.model_card import ModelCard


def make_hierarchical_cache(model_json=None, *, kv_cache_dtype="auto", max_tokens=100_000,
                            host_gib=32.0, tp_size=1, device="cuda", host_device="cpu"):
    card = ModelCard.from_json(model_json)
    gpu = GpuKVPool(card, max_tokens, kv_cache_dtype=kv_cache_dtype,
                    tp_size=tp_size, device=device)
    host = PinnedHostMirror.from_device_pool(gpu, host_gib, host_device=host_device)
    return gpu, host
