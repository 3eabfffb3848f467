"""Environment knobs, read lazily so tests can monkeypatch os.environ."""
import os


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def page_size() -> int:
    return _int("FERRY_PAGE_SIZE", 32)


def num_prefill_pages() -> int:
    return _int("FERRY_PREFILL_PAGES", 1536)


def num_decode_pages() -> int:
    return _int("FERRY_DECODE_PAGES", 6144)


def kv_dtype() -> str:
    return os.environ.get("FERRY_KV_DTYPE", "float8_e4m3fn")


def scale_dtype() -> str:
    return os.environ.get("FERRY_KV_SCALE_DTYPE", "float32")


def model_geometry() -> dict:
    return {
        "num_layers": _int("FERRY_NUM_LAYERS", 48),
        "num_kv_heads": _int("FERRY_NUM_KV_HEADS", 4),
        "head_dim": _int("FERRY_HEAD_DIM", 128),
        "tp_size": _int("FERRY_TP_SIZE", 1),
    }
