from .dtypes import MODEL_DTYPES, resolve_kv_dtype
from .geometry import merged
from .gpu_store import TokenKVStore
from .spill import PinnedSpillBuffer


def create_kv_storage(user_cfg: dict, device="cuda", pin_memory=True):
    cfg = merged(user_cfg)
    model_dtype = MODEL_DTYPES[cfg["torch_dtype"]]
    kv_dtype = resolve_kv_dtype(cfg["kv_cache_dtype"], model_dtype)
    dims = (cfg["num_hidden_layers"], cfg["num_key_value_heads"], cfg["head_dim"])
    store = TokenKVStore(cfg["max_total_tokens"], *dims, dtype=kv_dtype, device=device)
    spill = PinnedSpillBuffer(cfg["spill_tokens"], *dims, dtype=model_dtype,
                              pin_memory=pin_memory)
    return store, spill
