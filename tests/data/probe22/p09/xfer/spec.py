"""Deployment spec for the KV transfer sidecar (plain dicts; merged from the launcher)."""
import copy

DEFAULT_SPEC = {
    "model": {
        "num_layers": 24,
        "num_kv_heads": 4,
        "head_dim": 128,
    },
    "parallel": {"tp_size": 8, "tp_rank": 0},
    "kv": {
        "dtype": "int8",          # per-token/per-head symmetric int8 with fp32 scales
        "page_size": 32,
        "num_pages": 8192,
        "staging_pages": 1024,
    },
    "backend": {"name": "UCX", "device": "cuda", "staging_device": "cpu"},
}


def merge_spec(overrides: dict = None, base: dict = DEFAULT_SPEC) -> dict:
    spec = copy.deepcopy(base)
    for section, values in (overrides or {}).items():
        spec.setdefault(section, {}).update(values)
    return spec
