"""Launcher arguments (after CLI parsing) as a plain dict."""

DEFAULT_ARGS = {
    "max_total_tokens": 200_000,
    "page_size": 16,
    "kv_dtype": "fp8_e4m3fn",          # renamed from kv_cache_dtype in v3
    "spill_pages": 1024,
    "spill_dir": "/tmp/tgilite-spill",
    "num_shard": 1,
}

DEFAULT_MODEL_INFO = {
    "num_layers": 32,
    "num_heads": 32,
    "num_kv_heads": 8,
    "head_size": 128,
    "dtype": "bfloat16",
}


def load_args(overrides=None) -> dict:
    args = dict(DEFAULT_ARGS)
    args.update(overrides or {})
    return args
