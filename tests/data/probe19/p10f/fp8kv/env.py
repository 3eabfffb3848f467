import os


def _int(name, default):
    return int(os.environ.get(name, default))


def _flag(name, default):
    return os.environ.get(name, "1" if default else "0").lower() not in ("0", "false", "no")


SETTINGS = {
    "layers": _int("FP8KV_LAYERS", 36),
    "kv_heads": _int("FP8KV_KV_HEADS", 8),
    "head_dim": _int("FP8KV_HEAD_DIM", 128),
    "num_slots": _int("FP8KV_NUM_SLOTS", 200_000),
    "staging_tokens": _int("FP8KV_STAGING_TOKENS", 8192),
    "kv_format": os.environ.get("FP8KV_FORMAT", "e4m3"),
    "per_token_scales": _flag("FP8KV_PER_TOKEN_SCALES", True),
}
